import type { ClientId } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Keeps what version `versionId` of a client published per product and week (migration 0067):
 * for the client's records from `fromWeek` on, a row for each product-week whose Final figures
 * differ from the current kept ones (or that has none), and a removed row for each current
 * product-week that no longer has a record; then the rows they supersede are closed. Two
 * set-based statements; a publish repeated without edits writes nothing.
 */
export async function keepPublishedFigures(
  trx: Kysely<Database>,
  version: { id: number; clientId: ClientId },
  fromWeek: string,
): Promise<void> {
  await sql`
    insert into published_plan_rows (client_id, pid, week_start, valid_from, units, cost, revenue, removed)
    select p.client_id, r.pid, r.week_start, ${version.id}::int, coalesce(r.final_pln_units, 0),
      coalesce(r.final_bk_pln_cost, 0), coalesce(r.final_pln_rev_dlrs, 0), false
    from demand_records r
    join products p on p.pid = r.pid
    left join published_plan_rows c
      on c.pid = r.pid and c.week_start = r.week_start and c.valid_to is null
    where p.client_id = ${version.clientId} and r.week_start >= ${fromWeek}::date
      and (c.pid is null or c.removed
        or (c.units, c.cost, c.revenue) is distinct from
          (coalesce(r.final_pln_units, 0), coalesce(r.final_bk_pln_cost, 0), coalesce(r.final_pln_rev_dlrs, 0)))
    union all
    select c.client_id, c.pid, c.week_start, ${version.id}::int, 0, 0, 0, true
    from published_plan_rows c
    where c.client_id = ${version.clientId} and c.valid_to is null and not c.removed
      and c.week_start >= ${fromWeek}::date
      and not exists (
        select 1 from demand_records r join products p on p.pid = r.pid
        where r.pid = c.pid and r.week_start = c.week_start and p.client_id = c.client_id)`.execute(trx);
  await sql`
    update published_plan_rows o set valid_to = ${version.id}
    from published_plan_rows n
    where n.valid_from = ${version.id} and o.pid = n.pid and o.week_start = n.week_start
      and o.valid_to is null and o.valid_from <> ${version.id}`.execute(trx);
  await sql`update plan_versions set figures_kept = true where id = ${version.id}`.execute(trx);
}

/**
 * For data whose plan versions were recorded without figures (the demo data's generated cycles):
 * each client with no kept version gets its latest version's figures from the records' P1, from
 * the first day of the quarter of the week it was published in, as migration 0067 does.
 */
export async function keepLatestFiguresFromP1(db: Kysely<Database>): Promise<void> {
  const { rows: latest } = await sql<{ id: number; client_id: string; from_week: string }>`
    select distinct on (client_id) id, client_id,
      date_trunc('quarter', day - extract(dow from day)::int)::date::text as from_week
    from (select *, (published_at at time zone 'UTC')::date as day from plan_versions) v
    where not exists (select 1 from plan_versions k where k.client_id = v.client_id and k.figures_kept)
    order by client_id, published_at desc, id desc`.execute(db);
  for (const version of latest) {
    await sql`
      insert into published_plan_rows (client_id, pid, week_start, valid_from, units, cost, revenue)
      select p.client_id, r.pid, r.week_start, ${version.id}::int, r.p1_pub_pln_units,
        coalesce(r.p1_pub_pln_cost, 0), coalesce(r.p1_pub_pln_rev_dlrs, 0)
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = ${version.client_id} and r.week_start >= ${version.from_week}::date
        and r.p1_pub_pln_units is not null`.execute(db);
    await db.updateTable('plan_versions').set({ figures_kept: true }).where('id', '=', version.id).execute();
  }
}

/** A plan version as the plan sent out names it. */
export type KeptVersion = {
  id: number;
  client_id: ClientId;
  label: string;
  published_at: Date;
  figures_kept: boolean;
};

/** One version by id, if it is one of these clients'. */
export async function versionOf(
  db: Kysely<Database>,
  id: number,
  clientIds: readonly ClientId[],
): Promise<KeptVersion | undefined> {
  return (await db
    .selectFrom('plan_versions')
    .select(['id', 'client_id', 'label', 'published_at', 'figures_kept'])
    .where('id', '=', id)
    .where(sql<boolean>`client_id = any(${[...clientIds]}::text[])`)
    .executeTakeFirst()) as KeptVersion | undefined;
}

/**
 * Each client's latest version published at or before `at` (all of them without `at`), latest by
 * publish time, then id. Clients with none are absent.
 */
export async function latestVersions(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
  at?: Date,
): Promise<KeptVersion[]> {
  const { rows } = await sql<KeptVersion>`
    select distinct on (client_id) id, client_id, label, published_at, figures_kept
    from plan_versions
    where client_id = any(${[...clientIds]}::text[])
      ${at ? sql`and published_at <= ${at.toISOString()}::timestamptz` : sql``}
    order by client_id, published_at desc, id desc`.execute(db);
  return rows;
}

export type PublishedPlanRow = {
  pid: string;
  week_start: string;
  units: number;
  cost: number;
  revenue: number;
  removed: boolean;
};

/**
 * A page of one client's plan as of version `asOf`, from `fromWeek` on, in product-week order after
 * `after`. With `since` (a version of the client, or 0 for none), only the product-weeks whose
 * figures differ from the plan as of `since`: changed or new ones, and removed ones that were in
 * it. Without, the product-weeks in the plan (removed ones left out).
 */
export async function publishedPlanPage(
  db: Kysely<Database>,
  query: {
    clientId: ClientId;
    asOf: number;
    since: number | null;
    fromWeek: string;
    after: { pid: string; week: string } | null;
    limit: number;
  },
): Promise<PublishedPlanRow[]> {
  const { clientId, asOf, since, fromWeek, after, limit } = query;
  const keyset = after ? sql`and (c.pid, c.week_start) > (${after.pid}, ${after.week}::date)` : sql``;
  const asOfRow = (alias: string, version: number) =>
    sql`${sql.ref(`${alias}.valid_from`)} <= ${version}
      and (${sql.ref(`${alias}.valid_to`)} is null or ${sql.ref(`${alias}.valid_to`)} > ${version})`;
  const changes =
    since === null
      ? sql`and not c.removed`
      : sql`and c.valid_from > ${since}
          and not exists (
            select 1 from published_plan_rows o
            where o.client_id = c.client_id and o.pid = c.pid and o.week_start = c.week_start
              and ${asOfRow('o', since)}
              and (o.removed, o.units, o.cost, o.revenue) is not distinct from
                (c.removed, c.units, c.cost, c.revenue))
          and (not c.removed or exists (
            select 1 from published_plan_rows o
            where o.client_id = c.client_id and o.pid = c.pid and o.week_start = c.week_start
              and ${asOfRow('o', since)} and not o.removed))`;
  const { rows } = await sql<PublishedPlanRow>`
    select c.pid, c.week_start::text as week_start, c.units, c.cost, c.revenue, c.removed
    from published_plan_rows c
    where c.client_id = ${clientId} and c.week_start >= ${fromWeek}::date
      and ${asOfRow('c', asOf)} ${keyset} ${changes}
    order by c.pid, c.week_start
    limit ${limit}`.execute(db);
  return rows;
}
