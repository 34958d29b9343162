import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** Summed record columns and their SQL type once summed (units as double precision become numeric). */
const SUMMED = [
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

/** The kept sums and the product column each values the statistical forecast at. */
const ENSEMBLE_VALUES = [
  { column: 'ensemble_fcst_rev_dlrs', amount: 'unit_price' },
  { column: 'ensemble_fcst_cost', amount: 'unit_cost' },
] as const;

/**
 * Per-slice totals (ADR 0009): demand_week_totals summed once more, per client, business unit,
 * family and region and per period of each drill-down the grid offers above the week: the whole
 * horizon (drill_down 'none', period ''), months, quarters and years. A family or business-unit
 * page added up every partial sum of its slices (13,728 week rows at 20,000 × 156, ~100 NUMERIC
 * aggregates each); it now adds up one row per slice and period (88 rows without a drill-down,
 * ~350 by year, ~1,150 by quarter, ~3,200 by month).
 *
 * Periods are the grid's own keys (planning-grid.sql.ts periodKey, frozen here): the calendar
 * month, quarter and year of the week's Sunday. Each grain is kept from the weeks directly rather
 * than quarters and years from months, so a page reads one grain's rows and nothing else.
 *
 * Kept by statement triggers on demand_week_totals itself, so every writer of the week totals keeps
 * these too: the records' roll-up trigger (0025/0031), the products' slice rebuilds (0002, 0031), a
 * publish's P1/P2 shift and an import's new SKUs (both write the week totals directly), and
 * rebuild_demand_totals() (truncate, then insert). Each statement's old and new week rows are paired
 * on their key and every pair adds new minus old to its slice's periods: differences, never a
 * recount, so concurrent writers stay exact, and the rows are upserted in key order (as 0025 does
 * for the weeks), so they cannot deadlock on them within a statement. The latest update, which
 * subtraction cannot take back, is recomputed from the week totals for the periods whose latest
 * week stamp dropped or left; a period whose last record left is deleted.
 */

const SLICE = ['client_id', 'bu', 'pf', 'region'] as const;
const KEY = ['drill_down', ...SLICE, 'period'] as const;

/** The week totals' additive columns, as this migration found them (0002 and 0031). */
const SUMS = [
  'record_count',
  'data_count',
  'rank_sum',
  'rank_count',
  'rev_pct_wsum',
  'rev_pct_weight',
  'sop_pct_wsum',
  'sop_pct_weight',
  ...SUMMED,
  ...SUMMED.map((c) => `${c}_n`),
  ...ENSEMBLE_VALUES.map((v) => v.column),
];

/** Column type of each sum: that of the week totals' column. */
const typeOf = (column: string): string =>
  ['record_count', 'data_count', 'rank_count'].includes(column) || column.endsWith('_n')
    ? 'integer'
    : column === 'rank_sum'
      ? 'bigint'
      : 'numeric';

/** Every drill-down kept, one row each, as `g(drill_down)`. */
const GRAINS = `(values ('monthly'), ('none'), ('quarterly'), ('yearly')) g(drill_down)`;

/** The period of week `week` at drill-down `grain` (planning-grid.sql.ts periodKey). */
export const periodOf = (week: string, grain: string): string => `(case ${grain}
    when 'none' then ''::text
    when 'monthly' then to_char(${week}, 'YYYY-MM')
    when 'quarterly' then to_char(${week}, 'YYYY-"Q"Q')
    else to_char(${week}, 'YYYY') end)`;

/** Adds week rows `rows` (with last_updated_at and every sum) to their slices' periods. */
const addWeeks = (rows: string, latest: string): string => `
  insert into demand_slice_totals as t (${KEY.join(', ')}, last_updated_at, ${SUMS.join(', ')})
  select g.drill_down, ${SLICE.map((c) => `w.${c}`).join(', ')}, ${periodOf('w.week_start', 'g.drill_down')},
    max(${latest}), ${SUMS.map((c) => `sum(w.${c})`).join(', ')}
  from ${rows} w cross join ${GRAINS}
  group by 1, 2, 3, 4, 5, 6
  order by 1, 2, 3, 4, 5, 6
  on conflict (${KEY.join(', ')}) do update set
    ${SUMS.map((c) => `${c} = t.${c} + excluded.${c}`).join(',\n    ')},
    last_updated_at = greatest(t.last_updated_at, excluded.last_updated_at)`;

/**
 * One statement: pairs the week rows of `oldRows` and `newRows` on their key (an insert has no old
 * row, a delete no new one; a pair that changed nothing is left out), adds each pair's differences
 * to its slice's periods, and answers whether a week row left or lost records (a period may be
 * empty now: the records' trigger first takes a week's count to 0 and then deletes the row, whose
 * zero differences would otherwise bring back the period it emptied) and which weeks' latest stamp
 * may have dropped.
 */
const applyChanges = (oldRows: string, newRows: string): string => `
  with pairs as materialized (
    select ${SLICE.map((c) => `coalesce(n.${c}, o.${c}) as ${c}`).join(', ')},
      coalesce(n.week_start, o.week_start) as week_start, n.last_updated_at, n.week_start is null as gone,
      o.last_updated_at is not null
        and (n.week_start is null or n.last_updated_at is null or o.last_updated_at > n.last_updated_at) as dropped,
      ${SUMS.map((c) => `coalesce(n.${c}, 0) - coalesce(o.${c}, 0) as ${c}`).join(',\n      ')}
    from ${oldRows} o full join ${newRows} n
      on (${[...SLICE, 'week_start'].map((c) => `n.${c}`).join(', ')}) = (${[...SLICE, 'week_start'].map((c) => `o.${c}`).join(', ')})
    where o is distinct from n),
  applied as (${addWeeks('pairs', 'w.last_updated_at')})
  select coalesce(bool_or(record_count < 0 or gone), false),
    ${SLICE.map((c) => `array_agg(${c}) filter (where dropped)`).join(', ')},
    array_agg(week_start) filter (where dropped)
  from pairs`;

/**
 * The latest update of the periods of the weeks $1–$5 (slice columns and week), from the week
 * totals. Run after the upsert, which holds those rows: the week rows that a writer before it
 * committed are visible to this statement's own snapshot.
 */
const recomputeLatest = `
  update demand_slice_totals t set last_updated_at = (
    select max(w.last_updated_at) from demand_week_totals w
    where (${SLICE.map((c) => `w.${c}`).join(', ')}) = (${SLICE.map((c) => `t.${c}`).join(', ')})
      and ${periodOf('w.week_start', 't.drill_down')} = t.period)
  from (
    select distinct g.drill_down, ${SLICE.map((c) => `k.${c}`).join(', ')}, ${periodOf('k.week_start', 'g.drill_down')} as period
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::date[]) k(${SLICE.join(', ')}, week_start)
    cross join ${GRAINS}) k
  where (${KEY.map((c) => `t.${c}`).join(', ')}) = (${KEY.map((c) => `k.${c}`).join(', ')})`;

/** A typed empty copy of a transition table, for the side of a pair an event does not have. */
const none = (rows: string): string => `(select * from ${rows} where false)`;

const TRIGGER_FUNCTION = `create function demand_slice_totals_on_week_totals() returns trigger language plpgsql as $fn$
  declare
    removed boolean;
    client_ids text[]; bus text[]; pfs text[]; regions text[]; weeks date[];
  begin
    -- Through EXECUTE, as the records' trigger since migration 0005: a plan cached for one call's
    -- row count must never serve another's.
    -- An upsert that only updated still fires the insert trigger, with no rows: planning the
    -- statement for nothing cost as much as running it.
    if tg_op = 'INSERT' then
      if not exists (select 1 from new_rows) then
        return null;
      end if;
      execute $q$${applyChanges(none('new_rows'), 'new_rows')}$q$ into removed, client_ids, bus, pfs, regions, weeks;
    elsif tg_op = 'UPDATE' then
      execute $q$${applyChanges('old_rows', 'new_rows')}$q$ into removed, client_ids, bus, pfs, regions, weeks;
    else
      execute $q$${applyChanges('old_rows', none('old_rows'))}$q$ into removed, client_ids, bus, pfs, regions, weeks;
    end if;
    if removed then
      execute $q$delete from demand_slice_totals where record_count = 0$q$;
    end if;
    if weeks is not null then
      execute $q$${recomputeLatest}$q$ using client_ids, bus, pfs, regions, weeks;
    end if;
    return null;
  end $fn$`;

/** Every slice's periods from the week totals: the backfill, and the tests' reference. */
const REBUILD_FUNCTION = `create function rebuild_demand_slice_totals() returns void language plpgsql as $fn$
  begin
    truncate demand_slice_totals;
    ${addWeeks('demand_week_totals', 'w.last_updated_at')};
  end $fn$`;

/**
 * The annotations digest per slice and period (drill-downs above the week): each distinct comment
 * and reason code of a slice's records in a month, quarter or year, with the grid position (PID,
 * then week) of its first record, as migration 0033's digest holds them per slice. A family or
 * business-unit row at a drill-down read every annotated record of the page's groups (25,255 at
 * 20,000 × 156 when a yearly page holds every family); this holds ~12,000 rows for all three
 * grains. Kept by following 0033's digest: 0033 rebuilds a slice's digest (delete, insert)
 * whenever a statement changes an annotation of the slice or moves a product in or out, so the
 * slices its statements name are exactly those to rebuild here, from the records.
 */
/**
 * The period digest rows of slices `slices`, from the records: grouped once by month, then the
 * months' first positions give the quarters' and years' (the first of firsts), so the records are
 * read once, not once per grain.
 */
export const periodDigestOf = (slices: string): string => `
  with m as (
    select p.client_id, p.bu, p.pf, p.region, to_char(r.week_start, 'YYYY-MM') as period,
      min(r.week_start) as week_start, a.kind, a.value,
      min((r.pid || chr(1) || r.week_start::text) collate "C") as first_pos
    from (${slices}) s
    join products p on (p.client_id, p.bu, p.pf, p.region) = (s.client_id, s.bu, s.pf, s.region)
    join demand_records r on r.pid = p.pid and (r.comments is not null or r.reason_code is not null)
    cross join lateral (values ('comment', btrim(r.comments)), ('code', r.reason_code)) a(kind, value)
    where (a.kind = 'comment' and a.value <> '') or (a.kind = 'code' and a.value is not null)
    group by 1, 2, 3, 4, 5, 7, 8)
  select 'monthly', client_id, bu, pf, region, period, kind, value, first_pos from m
  union all
  select g.drill_down, client_id, bu, pf, region, ${periodOf('week_start', 'g.drill_down')}, kind, value, min(first_pos)
  from m cross join (values ('quarterly'), ('yearly')) g(drill_down)
  group by 1, 2, 3, 4, 5, 6, 7, 8`;

/** Advisory lock class of a slice's period digest rebuild (0033's is 7,333). */
const PERIOD_DIGEST_LOCK_CLASS = 7_334;

const PERIOD_DIGEST_FUNCTIONS = [
  `create function annotation_period_digest_forget(client_ids text[], bus text[], pfs text[], regions text[])
  returns void language plpgsql as $fn$
  begin
    -- One writer per slice at a time, slices locked in one order, as 0033's.
    perform pg_advisory_xact_lock(${PERIOD_DIGEST_LOCK_CLASS}, h) from (
      select distinct hashtext(concat_ws(chr(1), client_id, bu, pf, region)) as h
      from unnest(client_ids, bus, pfs, regions) as s(client_id, bu, pf, region) order by h) l;
    execute $q$delete from demand_annotation_period_digest d
      using (select distinct * from unnest($1, $2, $3, $4) as s(client_id, bu, pf, region)) s
      where (d.client_id, d.bu, d.pf, d.region) = (s.client_id, s.bu, s.pf, s.region)$q$
      using client_ids, bus, pfs, regions;
  end $fn$`,
  `create function annotation_period_digest_refresh(client_ids text[], bus text[], pfs text[], regions text[])
  returns void language plpgsql as $fn$
  begin
    perform annotation_period_digest_forget(client_ids, bus, pfs, regions);
    execute $q$insert into demand_annotation_period_digest
      ${periodDigestOf('select distinct * from unnest($1, $2, $3, $4) as s(client_id, bu, pf, region)')}$q$
      using client_ids, bus, pfs, regions;
  end $fn$`,
  `create function annotation_period_digest_rebuild() returns void language plpgsql as $fn$
  begin
    delete from demand_annotation_period_digest;
    insert into demand_annotation_period_digest ${periodDigestOf('select distinct client_id, bu, pf, region from products')};
  end $fn$`,
  `create function annotation_period_digest_on_digest() returns trigger language plpgsql as $fn$
  declare
    client_ids text[]; bus text[]; pfs text[]; regions text[];
  begin
    if tg_op = 'INSERT' then
      select array_agg(client_id), array_agg(bu), array_agg(pf), array_agg(region) into client_ids, bus, pfs, regions
      from (select distinct client_id, bu, pf, region from new_rows) s;
    else
      select array_agg(client_id), array_agg(bu), array_agg(pf), array_agg(region) into client_ids, bus, pfs, regions
      from (select distinct client_id, bu, pf, region from old_rows) s;
    end if;
    -- 0033 deletes a slice's rows and inserts its new ones: the delete forgets the slice's periods,
    -- the insert rebuilds those of the slices that still have annotations (each slice read once).
    if client_ids is not null and tg_op = 'INSERT' then
      perform annotation_period_digest_refresh(client_ids, bus, pfs, regions);
    elsif client_ids is not null then
      perform annotation_period_digest_forget(client_ids, bus, pfs, regions);
    end if;
    return null;
  end $fn$`,
  `create function annotation_period_digest_on_truncate() returns trigger language plpgsql as $fn$
  begin truncate demand_annotation_period_digest; return null; end $fn$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table demand_slice_totals (
        drill_down text not null check (drill_down in ('none', 'monthly', 'quarterly', 'yearly')),
        ${SLICE.map((c) => `${c} text not null`).join(', ')},
        period text not null,
        last_updated_at timestamptz,
        ${SUMS.map((c) => `${c} ${typeOf(c)} not null`).join(', ')},
        primary key (${KEY.join(', ')}))`,
    )
    .execute(db);
  await sql.raw(REBUILD_FUNCTION).execute(db);
  await sql`select rebuild_demand_slice_totals()`.execute(db);

  await sql.raw(TRIGGER_FUNCTION).execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger demand_slice_totals_${event} after ${event} on demand_week_totals
         referencing ${referencing} for each statement execute function demand_slice_totals_on_week_totals()`,
      )
      .execute(db);
  }
  // TRUNCATE fires no delete trigger: rebuild_demand_totals() empties the week totals with it.
  await sql
    .raw(
      `create function demand_slice_totals_on_truncate() returns trigger language plpgsql as $fn$
      begin truncate demand_slice_totals; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_slice_totals_truncate after truncate on demand_week_totals
    for each statement execute function demand_slice_totals_on_truncate()`.execute(db);

  await sql`create table demand_annotation_period_digest (
    drill_down text not null check (drill_down in ('monthly', 'quarterly', 'yearly')),
    client_id text not null, bu text not null, pf text not null, region text not null,
    period text not null,
    kind text not null check (kind in ('comment', 'code')),
    value text not null,
    first_pos text collate "C" not null,
    primary key (drill_down, client_id, bu, pf, region, period, kind, value))`.execute(db);
  for (const fn of PERIOD_DIGEST_FUNCTIONS) await sql.raw(fn).execute(db);
  // 0033's digest rows are deleted and inserted per slice, never updated.
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger annotation_period_digest_${event} after ${event} on demand_annotation_digest
         referencing ${referencing} for each statement execute function annotation_period_digest_on_digest()`,
      )
      .execute(db);
  }
  await sql`create trigger annotation_period_digest_truncate after truncate on demand_annotation_digest
    for each statement execute function annotation_period_digest_on_truncate()`.execute(db);
  await sql`select annotation_period_digest_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'delete', 'truncate']) {
    await sql
      .raw(`drop trigger if exists annotation_period_digest_${event} on demand_annotation_digest`)
      .execute(db);
  }
  await sql`drop function if exists annotation_period_digest_on_truncate()`.execute(db);
  await sql`drop function if exists annotation_period_digest_on_digest()`.execute(db);
  await sql`drop function if exists annotation_period_digest_rebuild()`.execute(db);
  await sql`drop function if exists annotation_period_digest_forget(text[], text[], text[], text[])`.execute(
    db,
  );
  await sql`drop function if exists annotation_period_digest_refresh(text[], text[], text[], text[])`.execute(
    db,
  );
  await sql`drop table if exists demand_annotation_period_digest`.execute(db);
  await sql`drop trigger if exists demand_slice_totals_truncate on demand_week_totals`.execute(db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists demand_slice_totals_${event} on demand_week_totals`).execute(db);
  }
  await sql`drop function if exists demand_slice_totals_on_truncate()`.execute(db);
  await sql`drop function if exists demand_slice_totals_on_week_totals()`.execute(db);
  await sql`drop function if exists rebuild_demand_slice_totals()`.execute(db);
  await sql`drop table if exists demand_slice_totals`.execute(db);
}
