import { sql, type Kysely } from 'kysely';
import { selectRecords, type DemandRecordRow } from '../../db/demand-record-row';
import type { Database } from '../../db/schema';
import { productFilter, weekFilter, type GridFilters } from '../planning-grid';

type Db = Kysely<Database>;

/**
 * Exports read in keyset pages (products after the last PID, in the grid's "C" order), never by
 * offset: each page costs the same however deep into 3 million records it is, memory stays at one
 * page, and it works on PGlite, which has no server-side cursors.
 */

/** The next `limit` PIDs after `after` among the products the filters select that have records. */
export async function productKeysAfter(
  db: Db,
  filters: GridFilters,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const { rows } = await sql<{ pid: string }>`
    select p.pid from products p
    where ${productFilter(filters)}
      ${after === null ? sql`` : sql`and p.pid collate "C" > ${after}`}
      and exists (select 1 from demand_records r where r.pid = p.pid)
    order by p.pid collate "C"
    limit ${limit}`.execute(db);
  return rows.map((row) => row.pid);
}

export async function countProducts(db: Db, filters: GridFilters): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from products p
    where ${productFilter(filters)} and exists (select 1 from demand_records r where r.pid = p.pid)`.execute(
    db,
  );
  return rows[0]?.n ?? 0;
}

/** The records of some products in the view's weeks, with data or without, in grid order (PID, then week). */
export async function recordsOfProducts(
  db: Db,
  pids: readonly string[],
  q: { hasData: boolean; filters: Pick<GridFilters, 'weeks'> },
): Promise<DemandRecordRow[]> {
  return selectRecords(db)
    .where('r.pid', 'in', pids)
    .where(sql<boolean>`r.has_data = ${q.hasData}${weekFilter(q.filters, 'r.week_start')}`)
    .orderBy(sql`r.pid collate "C"`)
    .orderBy('r.week_start')
    .execute();
}

export type ExportProductRow = {
  pid: string;
  pf: string;
  bu: string;
  region: string;
  site: string;
  planner_name: string | null;
  notes: string | null;
  unit_price: number;
  last_updated_at: Date | string | null;
};

/** Product attributes (planner and notes as the import keeps them) and each product's latest record change, in PID order. */
export async function productsOf(db: Db, pids: readonly string[]): Promise<ExportProductRow[]> {
  const { rows } = await sql<ExportProductRow>`
    select p.pid, p.pf, p.bu, p.region, p.site, d.planner_name, d.notes, p.unit_price::float8 as unit_price,
      (select max(r.last_updated_at) from demand_records r where r.pid = p.pid) as last_updated_at
    from products p left join product_details d on d.pid = p.pid
    where p.pid = any(${[...pids]}::text[])
    order by p.pid collate "C"`.execute(db);
  return rows;
}

/** The currency, number and date formats the user chose in Settings (kept on the server), as saved. */
export async function savedLocale(
  db: Db,
  userId: string,
): Promise<{ currency: string | null; numberFormat: string | null; dateFormat: string | null }> {
  const row = await db
    .selectFrom('user_settings')
    .select([
      sql<string | null>`settings->>'currency'`.as('currency'),
      sql<string | null>`settings->>'numberFormat'`.as('numberFormat'),
      sql<string | null>`settings->>'dateFormat'`.as('dateFormat'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    currency: row?.currency ?? null,
    numberFormat: row?.numberFormat ?? null,
    dateFormat: row?.dateFormat ?? null,
  };
}

export type ExportWeekRow = {
  pid: string;
  sk: string;
  forecast: number | null;
  final: number | null;
  final_revenue: number | null;
  overridden: boolean;
};

/** The products' weeks from `first` to `last` (yyyy-mm-dd), the figures the export row sums. */
export async function weeksOf(
  db: Db,
  pids: readonly string[],
  first: string,
  last: string,
): Promise<ExportWeekRow[]> {
  const { rows } = await sql<ExportWeekRow>`
    select r.pid, to_char(r.week_start, 'YYYYMMDD') as sk,
      r.ensemble_fcst_units::float8 as forecast, r.final_pln_units::float8 as final,
      r.final_pln_rev_dlrs::float8 as final_revenue,
      (r.rev_pln_ovrd_percent is not null or r.rev_pln_ovrd_units is not null
        or r.sop_pln_ovrd_percent is not null or r.sop_pln_ovrd_units is not null) as overridden
    from demand_records r
    where r.pid = any(${[...pids]}::text[]) and r.week_start between ${first}::date and ${last}::date`.execute(
    db,
  );
  return rows;
}
