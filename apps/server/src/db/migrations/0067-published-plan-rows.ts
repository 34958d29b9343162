import { sql, type Kysely } from 'kysely';

/**
 * The published plan per product and week, kept per plan version so that the plan sent out can be
 * read whole or as the changes since an earlier version (docs/data-integration.md "The plan, sent
 * out"). P1 on the records cannot serve: it holds one version only, and imports and the record
 * API may write it.
 *
 * A row holds one product-week's figures from the version that published them (`valid_from`)
 * until the version of the same client that published other figures (`valid_to`, null while
 * current). A publish writes only the product-weeks whose figures changed, and a `removed` row for
 * a product-week that is no longer planned. A client's version ids grow with its publishes (they
 * are taken under the publish lock), so the plan as of version V is the rows with
 * valid_from <= V < coalesce(valid_to, ∞). No foreign key to products: a deleted product's rows
 * stay, so the next publish can say the product-weeks were removed.
 *
 * Versions published before this table have no figures, except each client's latest one: its
 * figures are the records' P1 (what that publish wrote) from the first day of the quarter of the week it
 * was published in, the weeks a publish moves. `figures_kept` tells which versions can be compared
 * against.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table published_plan_rows (
    client_id text not null,
    pid text not null,
    week_start date not null,
    valid_from integer not null,
    valid_to integer,
    units integer not null,
    cost numeric(16,2) not null,
    revenue numeric(16,2) not null,
    removed boolean not null default false,
    constraint published_plan_rows_pk primary key (client_id, pid, week_start, valid_from)
  )`.execute(db);
  // A publish compares the records with the current rows, and closes the rows it superseded.
  await sql`create index published_plan_rows_current
    on published_plan_rows (pid, week_start) where valid_to is null`.execute(db);
  await sql`create index published_plan_rows_from on published_plan_rows (valid_from)`.execute(db);
  await sql`alter table plan_versions add column figures_kept boolean not null default false`.execute(db);

  const { rows: latest } = await sql<{ id: number; client_id: string; from_week: string }>`
    select distinct on (client_id) id, client_id,
      date_trunc('quarter', day - extract(dow from day)::int)::date::text as from_week
    from (select *, (published_at at time zone 'UTC')::date as day from plan_versions) v
    order by client_id, published_at desc, id desc`.execute(db);
  for (const version of latest) {
    await sql`
      insert into published_plan_rows (client_id, pid, week_start, valid_from, units, cost, revenue)
      select p.client_id, r.pid, r.week_start, ${version.id}::int, r.p1_pub_pln_units,
        coalesce(r.p1_pub_pln_cost, 0), coalesce(r.p1_pub_pln_rev_dlrs, 0)
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = ${version.client_id} and r.week_start >= ${version.from_week}::date
        and r.p1_pub_pln_units is not null`.execute(db);
    await sql`update plan_versions set figures_kept = true where id = ${version.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table plan_versions drop column figures_kept`.execute(db);
  await sql`drop table published_plan_rows`.execute(db);
}
