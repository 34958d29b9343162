import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** The period of week `week` at drill-down `grain` (planning-grid.sql.ts periodKey). */
const periodOf = (week: string, grain: string): string => `(case ${grain}
    when 'none' then ''::text
    when 'monthly' then to_char(${week}, 'YYYY-MM')
    when 'quarterly' then to_char(${week}, 'YYYY-"Q"Q')
    else to_char(${week}, 'YYYY') end)`;

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
const periodDigestOf = (slices: string): string => `
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

/**
 * The annotations digest per slice and period (migration 0034) gains the week: each distinct
 * comment and reason code of a slice's records in a week, with the grid position (PID, then week)
 * of its first record. A family or business-unit row by week read every annotated record of the
 * page's families or business units: at 100,000 × 156 a business unit × week page sorted by a
 * figure read 75,000 of them (three business units) to keep 1,032 distinct notes, and the page
 * took 3.3× its time at 20,000 products. A slice's distinct notes in a week are bounded by the
 * notes planners use, so the page now reads at most those per slice and week it shows, each by the
 * primary key (planning-grid-annotations.repository.ts). Session 8 tried this grain (as 0037,
 * never shipped) and read it with a scan of every weekly row, which cost more than the records on
 * the default data set; read by key it does not (ADR 0009's second addendum).
 *
 * Built as 0034 builds its grains, only one level finer: the records are grouped by week once, and
 * the weeks' first positions give the months', quarters' and years' (the first of firsts). Kept the
 * same way too: 0034's functions rebuild a slice's rows whenever 0033's digest rebuilds the slice
 * (a statement changed one of its annotations, or moved a product in or out), so replacing the
 * functions' bodies is all it takes; the forget function, which deletes a slice's rows of every
 * grain, stays as it is. 0034's own row builder restores its functions on the way down.
 */

/** The annotated records of slices `slices` as (slice, week, kind, value, first position in the week). */
const annotatedWeeks = (slices: string): string => `
    select p.client_id, p.bu, p.pf, p.region, to_char(r.week_start, 'YYYY-MM-DD') as period,
      min(r.week_start) as week_start, a.kind, a.value,
      min((r.pid || chr(1) || r.week_start::text) collate "C") as first_pos
    from (${slices}) s
    join products p on (p.client_id, p.bu, p.pf, p.region) = (s.client_id, s.bu, s.pf, s.region)
    join demand_records r on r.pid = p.pid and (r.comments is not null or r.reason_code is not null)
    cross join lateral (values ('comment', btrim(r.comments)), ('code', r.reason_code)) a(kind, value)
    where (a.kind = 'comment' and a.value <> '') or (a.kind = 'code' and a.value is not null)
    group by 1, 2, 3, 4, 5, 7, 8`;

/** The digest rows of slices `slices` at every grain: weeks from the records, the rest from the weeks. */
const periodDigestWithWeeks = (slices: string): string => `
  with w as (${annotatedWeeks(slices)})
  select 'weekly', client_id, bu, pf, region, period, kind, value, first_pos from w
  union all
  select g.drill_down, client_id, bu, pf, region, ${periodOf('week_start', 'g.drill_down')}, kind, value, min(first_pos)
  from w cross join (values ('monthly'), ('quarterly'), ('yearly')) g(drill_down)
  group by 1, 2, 3, 4, 5, 6, 7, 8`;

/** The slices as four parallel arrays ($1–$4), without repeats. */
const SLICE_ARRAYS = 'select distinct * from unnest($1, $2, $3, $4) as s(client_id, bu, pf, region)';

/** 0034's refresh and rebuild functions, their rows built by `digestOf`. */
const functions = (digestOf: (slices: string) => string): string[] => [
  `create or replace function annotation_period_digest_refresh(client_ids text[], bus text[], pfs text[], regions text[])
  returns void language plpgsql as $fn$
  begin
    perform annotation_period_digest_forget(client_ids, bus, pfs, regions);
    execute $q$insert into demand_annotation_period_digest ${digestOf(SLICE_ARRAYS)}$q$
      using client_ids, bus, pfs, regions;
  end $fn$`,
  `create or replace function annotation_period_digest_rebuild() returns void language plpgsql as $fn$
  begin
    delete from demand_annotation_period_digest;
    insert into demand_annotation_period_digest ${digestOf('select distinct client_id, bu, pf, region from products')};
  end $fn$`,
];

const GRAINS_CHECK = 'demand_annotation_period_digest_drill_down_check';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table demand_annotation_period_digest drop constraint ${GRAINS_CHECK},
        add constraint ${GRAINS_CHECK} check (drill_down in ('weekly', 'monthly', 'quarterly', 'yearly'))`,
    )
    .execute(db);
  for (const fn of functions(periodDigestWithWeeks)) await sql.raw(fn).execute(db);
  await sql`select annotation_period_digest_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from demand_annotation_period_digest where drill_down = 'weekly'`.execute(db);
  await sql
    .raw(
      `alter table demand_annotation_period_digest drop constraint ${GRAINS_CHECK},
        add constraint ${GRAINS_CHECK} check (drill_down in ('monthly', 'quarterly', 'yearly'))`,
    )
    .execute(db);
  for (const fn of functions(periodDigestOf)) await sql.raw(fn).execute(db);
}
