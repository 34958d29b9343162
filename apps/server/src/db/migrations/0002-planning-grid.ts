import { sql, type Kysely } from 'kysely';

/**
 * Planning grid (ADR 0003):
 * - demand_records.has_data, a stored generated column: any actual or planned cost or revenue
 *   that is present and not zero. The grid sorts such rows first (spec §9), and an index on
 *   (has_data desc, pid, week_start) serves that order page by page.
 * - demand_week_totals: per client, business unit, product family, region and week, the sums a
 *   roll-up needs. Triggers keep it exact inside the writing transaction, so business-unit and
 *   family roll-ups read a few thousand rows instead of millions of records and can never be stale.
 * Columns are listed here rather than imported so that this migration never changes once shipped.
 */

/** Summed record columns and their SQL type once summed (units as double precision become numeric). */
export const SUMMED = [
  'act_bkg_units',
  'act_bkg_cost',
  'act_rev_dlrs',
  'naive_fcst_units',
  'ensemble_fcst_units',
  'rev_pln_ovrd_units',
  'prelim_pln_units',
  'prelim_pln_cost',
  'prelim_pln_rev_dlrs',
  'sop_pln_ovrd_units',
  'final_pln_units',
  'final_bk_pln_cost',
  'final_pln_rev_dlrs',
  'delta_prelim_to_final_pln_cost',
  'delta_prelim_to_final_pln_units',
  'delta_prelim_to_final_pln_rev_dlrs',
  'p1_pub_pln_units',
  'p1_pub_pln_cost',
  'p1_pub_pln_rev_dlrs',
  'p2_pub_pln_units',
  'p2_pub_pln_cost',
  'p2_pub_pln_rev_dlrs',
] as const;

export const GROUP_KEY = ['client_id', 'bu', 'pf', 'region', 'week_start'] as const;

/** Override weight per record (spec §9): final planned units, else actual units, else 1. */
const WEIGHT = `(case when d.final_pln_units > 0 then d.final_pln_units::numeric
  when d.act_bkg_units > 0 then d.act_bkg_units::numeric else 1 end)`;

/**
 * Adds the rows of `source` (columns: sign, the record columns, client_id, bu, pf, region, rank)
 * to the totals: sign 1 adds a record, -1 takes it away. Rows are locked in key order, so
 * concurrent writers cannot deadlock on the totals.
 */
export function addToTotals(source: string): string {
  const sums = SUMMED.map((c) => `coalesce(sum(d.sign * d.${c}::numeric), 0)`);
  const counts = SUMMED.map((c) => `coalesce(sum(d.sign) filter (where d.${c} is not null), 0)`);
  const columns = [
    ...GROUP_KEY,
    'record_count',
    'data_count',
    'rank_sum',
    'rank_count',
    'rev_pct_wsum',
    'rev_pct_weight',
    'sop_pct_wsum',
    'sop_pct_weight',
    'last_updated_at',
    ...SUMMED,
    ...SUMMED.map((c) => `${c}_n`),
  ];
  const additive = columns.filter(
    (c) => !(GROUP_KEY as readonly string[]).includes(c) && c !== 'last_updated_at',
  );
  return `
    insert into demand_week_totals as t (${columns.join(', ')})
    select d.client_id, d.bu, d.pf, d.region, d.week_start,
      sum(d.sign),
      coalesce(sum(d.sign) filter (where d.has_data), 0),
      coalesce(sum(d.sign * d.rank), 0),
      coalesce(sum(d.sign) filter (where d.rank is not null), 0),
      coalesce(sum(d.sign * d.rev_pln_ovrd_percent * ${WEIGHT}), 0),
      coalesce(sum(d.sign * ${WEIGHT}) filter (where d.rev_pln_ovrd_percent is not null), 0),
      coalesce(sum(d.sign * d.sop_pln_ovrd_percent * ${WEIGHT}), 0),
      coalesce(sum(d.sign * ${WEIGHT}) filter (where d.sop_pln_ovrd_percent is not null), 0),
      max(d.last_updated_at) filter (where d.sign > 0),
      ${[...sums, ...counts].join(',\n      ')}
    from (${source}) d
    group by d.client_id, d.bu, d.pf, d.region, d.week_start
    order by d.client_id, d.bu, d.pf, d.region, d.week_start
    on conflict (${GROUP_KEY.join(', ')}) do update set
      ${additive.map((c) => `${c} = t.${c} + excluded.${c}`).join(',\n      ')},
      last_updated_at = greatest(t.last_updated_at, excluded.last_updated_at)`;
}

export const withProduct = (rows: string, sign: 1 | -1): string =>
  `select ${sign} as sign, r.*, p.client_id, p.bu, p.pf, p.region, p.rank
   from ${rows} r join products p on p.pid = r.pid`;

/** The latest update cannot be taken back by subtraction: recompute it where it may have dropped. */
export const recomputeLatest = (touched: string): string => `
  update demand_week_totals t set last_updated_at = (
    select max(r.last_updated_at) from demand_records r join products p on p.pid = r.pid
    where r.week_start = t.week_start and p.client_id = t.client_id and p.bu = t.bu
      and p.pf = t.pf and p.region = t.region)
  from (${touched}) k
  where (t.client_id, t.bu, t.pf, t.region, t.week_start) = (k.client_id, k.bu, k.pf, k.region, k.week_start)`;

/** Rebuilds one client/BU/family/region slice from the records (after a product moved or left). */
const refreshSlice = (prefix: 'old' | 'new'): string => `
  delete from demand_week_totals
  where client_id = ${prefix}.client_id and bu = ${prefix}.bu and pf = ${prefix}.pf and region = ${prefix}.region;
  ${addToTotals(`select 1 as sign, r.*, p.client_id, p.bu, p.pf, p.region, p.rank
    from demand_records r join products p on p.pid = r.pid
    where p.client_id = ${prefix}.client_id and p.bu = ${prefix}.bu and p.pf = ${prefix}.pf and p.region = ${prefix}.region`)};`;

/**
 * Per product: how many records and time buckets it has, and how many of them hold data. The
 * grid pages product-level views by summing these counts instead of grouping millions of rows.
 */
export const refreshProductTotals = (pids: string): string => `
  insert into demand_product_totals as t (pid, record_count, data_count, month_groups, month_data_groups,
    quarter_groups, quarter_data_groups, year_groups, year_data_groups)
  select n.pid, s.* from (select distinct pid from (${pids}) x order by pid) n
  cross join lateral (
    -- Per product through the primary key: a set-based join here would scan every record.
    select count(*) as record_count, count(*) filter (where r.has_data) as data_count,
      count(distinct date_trunc('month', r.week_start)),
      count(distinct date_trunc('month', r.week_start)) filter (where r.has_data),
      count(distinct date_trunc('quarter', r.week_start)),
      count(distinct date_trunc('quarter', r.week_start)) filter (where r.has_data),
      count(distinct date_trunc('year', r.week_start)),
      count(distinct date_trunc('year', r.week_start)) filter (where r.has_data)
    from demand_records r where r.pid = n.pid) s
  where s.record_count > 0
  on conflict (pid) do update set record_count = excluded.record_count, data_count = excluded.data_count,
    month_groups = excluded.month_groups, month_data_groups = excluded.month_data_groups,
    quarter_groups = excluded.quarter_groups, quarter_data_groups = excluded.quarter_data_groups,
    year_groups = excluded.year_groups, year_data_groups = excluded.year_data_groups;
  delete from demand_product_totals t
  where t.pid in (${pids}) and not exists (select 1 from demand_records r where r.pid = t.pid)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const flags = [
    'act_bkg_cost',
    'act_rev_dlrs',
    'prelim_pln_cost',
    'prelim_pln_rev_dlrs',
    'final_bk_pln_cost',
    'final_pln_rev_dlrs',
  ];
  await sql
    .raw(
      `alter table demand_records add column has_data boolean not null
       generated always as (${flags.map((c) => `coalesce(${c}, 0) <> 0`).join(' or ')}) stored`,
    )
    .execute(db);
  // The original table's order: rows with data first, then PID, then week.
  await sql`create index demand_records_grid_order on demand_records (has_data desc, pid, week_start)`.execute(
    db,
  );
  // Comments and reason codes are sparse; roll-ups read them through this small index.
  await sql`create index demand_records_annotated on demand_records (week_start, pid)
    where comments is not null or reason_code is not null`.execute(db);

  // Overridden records are few; the summary's override figures read them through this index.
  await sql`create index demand_records_overridden on demand_records (pid, week_start)
    where rev_pln_ovrd_percent is not null or rev_pln_ovrd_units is not null
       or sop_pln_ovrd_percent is not null or sop_pln_ovrd_units is not null`.execute(db);

  await sql
    .raw(
      `create table demand_week_totals (
        client_id text not null, bu text not null, pf text not null, region text not null,
        week_start date not null,
        record_count integer not null, data_count integer not null,
        rank_sum bigint not null, rank_count integer not null,
        rev_pct_wsum numeric not null, rev_pct_weight numeric not null,
        sop_pct_wsum numeric not null, sop_pct_weight numeric not null,
        last_updated_at timestamptz,
        ${SUMMED.map((c) => `${c} numeric not null`).join(', ')},
        ${SUMMED.map((c) => `${c}_n integer not null`).join(', ')},
        primary key (${GROUP_KEY.join(', ')}))`,
    )
    .execute(db);

  await sql`create table demand_product_totals (
    pid text primary key references products (pid) on delete cascade,
    record_count integer not null, data_count integer not null,
    month_groups integer not null, month_data_groups integer not null,
    quarter_groups integer not null, quarter_data_groups integer not null,
    year_groups integer not null, year_data_groups integer not null)`.execute(db);

  // Records that exist already (a database seeded before this migration) are counted once here.
  await sql.raw(addToTotals(withProduct('demand_records', 1))).execute(db);
  for (const statement of refreshProductTotals('select pid from products').split(';')) {
    await sql.raw(statement).execute(db);
  }

  await sql
    .raw(
      `create function demand_week_totals_on_records() returns trigger language plpgsql as $fn$
      begin
        if tg_op = 'INSERT' then
          ${addToTotals(withProduct('new_rows', 1))};
          ${refreshProductTotals('select pid from new_rows')};
        elsif tg_op = 'UPDATE' then
          ${addToTotals(`${withProduct('old_rows', -1)} union all ${withProduct('new_rows', 1)}`)};
          ${recomputeLatest(`select distinct p.client_id, p.bu, p.pf, p.region, o.week_start
            from old_rows o join new_rows n on n.pid = o.pid and n.week_start = o.week_start
            join products p on p.pid = o.pid
            where o.last_updated_at > n.last_updated_at
               or (o.last_updated_at is not null and n.last_updated_at is null)`)};
          -- Bucket counts change only when a record gains or loses data.
          ${refreshProductTotals(`select o.pid from old_rows o join new_rows n
            on n.pid = o.pid and n.week_start = o.week_start where o.has_data <> n.has_data`)};
        else
          ${addToTotals(withProduct('old_rows', -1))};
          ${recomputeLatest(`select distinct p.client_id, p.bu, p.pf, p.region, o.week_start
            from old_rows o join products p on p.pid = o.pid where o.last_updated_at is not null`)};
          delete from demand_week_totals where record_count = 0;
          ${refreshProductTotals('select pid from old_rows')};
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger demand_week_totals_${event} after ${event} on demand_records
         referencing ${referencing} for each statement execute function demand_week_totals_on_records()`,
      )
      .execute(db);
  }

  // TRUNCATE fires no row or statement delete triggers of its own kind: empty the totals with it.
  await sql
    .raw(
      `create function demand_week_totals_on_truncate() returns trigger language plpgsql as $fn$
      begin truncate demand_week_totals, demand_product_totals; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_week_totals_truncate after truncate on demand_records
    for each statement execute function demand_week_totals_on_truncate()`.execute(db);

  // A product that changes client, business unit, family, region or rank, or that is deleted
  // (its records go with it), moves its records between slices: rebuild the slices it touched.
  await sql
    .raw(
      `create function demand_week_totals_on_products() returns trigger language plpgsql as $fn$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${refreshSlice('old')} end if;
        if tg_op = 'UPDATE' then ${refreshSlice('new')} end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_week_totals_product_update after update of client_id, bu, pf, region, rank
    on products for each row
    when ((old.client_id, old.bu, old.pf, old.region, old.rank) is distinct from (new.client_id, new.bu, new.pf, new.region, new.rank))
    execute function demand_week_totals_on_products()`.execute(db);
  await sql`create trigger demand_week_totals_product_delete after delete on products
    for each row execute function demand_week_totals_on_products()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists demand_week_totals_product_delete on products`.execute(db);
  await sql`drop trigger if exists demand_week_totals_product_update on products`.execute(db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists demand_week_totals_${event} on demand_records`).execute(db);
  }
  await sql`drop trigger if exists demand_week_totals_truncate on demand_records`.execute(db);
  await sql`drop function if exists demand_week_totals_on_truncate()`.execute(db);
  await sql`drop function if exists demand_week_totals_on_products()`.execute(db);
  await sql`drop function if exists demand_week_totals_on_records()`.execute(db);
  await sql`drop table if exists demand_product_totals`.execute(db);
  await sql`drop table if exists demand_week_totals`.execute(db);
  await sql`drop index if exists demand_records_overridden`.execute(db);
  await sql`drop index if exists demand_records_annotated`.execute(db);
  await sql`drop index if exists demand_records_grid_order`.execute(db);
  await sql`alter table demand_records drop column if exists has_data`.execute(db);
}
