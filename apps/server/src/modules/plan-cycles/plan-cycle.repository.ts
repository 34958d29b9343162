import { roundToCents, type ClientId, type QuarterTotals } from '@ps/domain';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, PlanVersionsTable } from '../../db/schema';
import { bulkWrite } from '../../read-model';

export type PlanVersionRow = Selectable<PlanVersionsTable>;
export type ClientPlanTotals = {
  clientId: ClientId;
  recordCount: number;
  units: number;
  cost: number;
  revenue: number;
  quarters: QuarterTotals[];
};

/**
 * Serialises publishes: SHARE ROW EXCLUSIVE conflicts with itself, so a second publish waits
 * until the first commits, while readers of plan_versions (dashboard, list) never wait.
 */
export async function lockPublishing(trx: Kysely<Database>): Promise<void> {
  // A full publish rewrites every record (3.1 M on 20,000 × 156), longer than the pool's
  // per-statement limit; and a second publish waits for the first rather than failing.
  await sql`set local statement_timeout = '300s'`.execute(trx);
  await sql`set local lock_timeout = '300s'`.execute(trx);
  // The publish's statements are estimated expensive enough for JIT compilation, which costs
  // more than it saves on statements that each visit a row once.
  await sql`set local jit = off`.execute(trx);
  await sql`lock table plan_versions in share row exclusive mode`.execute(trx);
}

/** The forecast run rewriting any of these clients' plans right now, if one is. */
export async function findRunningForecast(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<{ id: number; requested_by: string } | undefined> {
  return db
    .selectFrom('forecast_runs')
    .select(['id', 'requested_by'])
    .where('status', '=', 'running')
    .where(sql<boolean>`client_ids && ${[...clientIds]}::text[]`)
    .executeTakeFirst();
}

/** The record columns a publish shifts. */
const SHIFTED_COLUMNS = [
  'p1_pub_pln_units',
  'p1_pub_pln_cost',
  'p1_pub_pln_rev_dlrs',
  'p2_pub_pln_units',
  'p2_pub_pln_cost',
  'p2_pub_pln_rev_dlrs',
];

/**
 * Final → P1 and P1 → P2 for the records of the clients from `fromWeek` on (the first week of
 * the current quarter: a week that has passed keeps the plan last published while it was still
 * ahead, docs/adr/0006), in one statement, as a bulk write: the records' kept-table triggers stand
 * aside, and the kept tables that read P1/P2 (the week totals, and the slice totals after them)
 * are rebuilt for these clients' products and weeks. No index holds P1/P2 and the records' pages
 * keep room for a new version (migration 0018), so every row's update is HOT.
 */
export async function shiftPublishedPlans(
  trx: Transaction<Database>,
  clientIds: readonly ClientId[],
  fromWeek: string,
): Promise<void> {
  await bulkWrite(trx, async () => {
    // The week range is read through the records' week index (a quarter and the horizon ahead are
    // about a quarter of 156 weeks), not by a scan of every record.
    const { rows } = await sql<{ pid: string; last: string | null }>`
      with shifted as (
        update demand_records r set
          p2_pub_pln_units = r.p1_pub_pln_units,
          p2_pub_pln_cost = r.p1_pub_pln_cost,
          p2_pub_pln_rev_dlrs = r.p1_pub_pln_rev_dlrs,
          p1_pub_pln_units = r.final_pln_units,
          p1_pub_pln_cost = r.final_bk_pln_cost,
          p1_pub_pln_rev_dlrs = r.final_pln_rev_dlrs
        from products p
        where p.pid = r.pid and p.client_id = any(${[...clientIds]}::text[])
          and r.week_start >= ${fromWeek}::date
          -- A row the shift leaves as it is need not be written (a publish repeated without edits).
          and (r.p2_pub_pln_units, r.p2_pub_pln_cost, r.p2_pub_pln_rev_dlrs,
              r.p1_pub_pln_units, r.p1_pub_pln_cost, r.p1_pub_pln_rev_dlrs)
            is distinct from (r.p1_pub_pln_units, r.p1_pub_pln_cost, r.p1_pub_pln_rev_dlrs,
              r.final_pln_units, r.final_bk_pln_cost, r.final_pln_rev_dlrs)
        returning r.pid, r.week_start)
      select pid, max(week_start)::text as last from shifted group by pid`.execute(trx);
    const last = rows.reduce((latest, r) => (r.last! > latest ? r.last! : latest), fromWeek);
    return {
      pids: rows.map((r) => r.pid),
      weeks: { first: fromWeek, last },
      columns: SHIFTED_COLUMNS,
    };
  });
}

/**
 * Final plan totals per client and fiscal quarter, from the trigger-kept week totals (a few
 * thousand rows at any data size). Clients with no records are absent.
 */
export async function finalPlanTotals(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<ClientPlanTotals[]> {
  const { rows } = await sql<{
    client_id: ClientId;
    quarter: string;
    record_count: number;
    units: number;
    cost: number;
    revenue: number;
  }>`
    select t.client_id, to_char(t.week_start, 'YYYY-"Q"Q') as quarter,
      sum(t.record_count)::int as record_count,
      coalesce(sum(t.final_pln_units), 0) as units,
      coalesce(sum(t.final_bk_pln_cost), 0) as cost,
      coalesce(sum(t.final_pln_rev_dlrs), 0) as revenue
    from demand_week_totals t
    where t.client_id = any(${[...clientIds]}::text[])
    group by 1, 2
    order by 1, 2`.execute(db);
  const byClient = new Map<ClientId, ClientPlanTotals>();
  for (const row of rows) {
    const client = byClient.get(row.client_id) ?? {
      clientId: row.client_id,
      recordCount: 0,
      units: 0,
      cost: 0,
      revenue: 0,
      quarters: [],
    };
    client.recordCount += row.record_count;
    client.units += row.units;
    client.cost = roundToCents(client.cost + row.cost);
    client.revenue = roundToCents(client.revenue + row.revenue);
    client.quarters.push({ quarter: row.quarter, units: row.units, cost: row.cost, revenue: row.revenue });
    byClient.set(row.client_id, client);
  }
  return [...byClient.values()];
}

/**
 * The time a publish records, read once it holds the publish lock: a publish that waited for
 * another is then later than it, as its version ids are (the transaction's start time is not).
 */
export async function publishTime(trx: Kysely<Database>): Promise<Date> {
  const { rows } = await sql<{ at: Date | string }>`select clock_timestamp() as at`.execute(trx);
  return new Date(rows[0]!.at);
}

export async function insertPlanVersion(
  trx: Kysely<Database>,
  version: {
    cycle: string;
    label: string;
    publishedBy: string;
    publishedAt: Date;
    totals: ClientPlanTotals;
  },
): Promise<PlanVersionRow> {
  const { totals } = version;
  return trx
    .insertInto('plan_versions')
    .values({
      client_id: totals.clientId,
      published_at: version.publishedAt,
      cycle: version.cycle,
      label: version.label,
      published_by: version.publishedBy,
      scope: JSON.stringify({}),
      record_count: totals.recordCount,
      final_units: totals.units,
      final_cost: totals.cost,
      final_revenue: totals.revenue,
      quarters: JSON.stringify(totals.quarters),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listPlanVersions(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<PlanVersionRow[]> {
  return db
    .selectFrom('plan_versions')
    .selectAll()
    .where(sql<boolean>`client_id = any(${[...clientIds]}::text[])`)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
