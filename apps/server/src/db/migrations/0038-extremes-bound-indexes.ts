import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** Summed record columns whose group sums are kept (demand_week_totals' minus P1/P2). */
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
] as const;

const PERCENTS = ['rev_pln_ovrd_percent', 'sop_pln_ovrd_percent'] as const;

const FIGURES = [...SUMMED, ...PERCENTS, 'last_updated_at'] as const;

/**
 * An index per kept figure and bound on demand_product_extremes (docs/adr/0008).
 *
 * A figure-sorted page needs the K = offset + limit products with the best bound (largest maximum
 * descending, smallest minimum ascending) and then every product whose bound reaches the K-th.
 * Without an index that took one row per product and drill-down: 2,000 products cost what 2,000
 * rows cost, 100,000 what 100,000 do. Through `(drill, <figure>_hi)` and `(drill, <figure>_lo)`
 * the search walks the bounds in order and stops after some K products.
 *
 * The price is on writes: an update that changes an indexed column is no longer HOT (the table's
 * fillfactor 70 kept refreshes on their page), so a refresh that moves any of a product's bounds
 * writes a new entry for that row into every index (those where the column is not null), and
 * into the primary key and the pid index.
 * The figures are 0032's own list (a shipped migration's, so it never changes).
 */
const BOUND_COLUMNS = FIGURES.flatMap((figure) => [`${figure}_hi`, `${figure}_lo`]);

export async function up(db: Kysely<unknown>): Promise<void> {
  // A product without a value is never a candidate, and most have none of an override (75–100 %
  // null at 20,000 products): left out, they cost neither space nor a write.
  for (const column of BOUND_COLUMNS)
    await sql
      .raw(
        `create index if not exists demand_product_extremes_${column} on demand_product_extremes (drill, ${column})
         where ${column} is not null`,
      )
      .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of BOUND_COLUMNS)
    await sql.raw(`drop index if exists demand_product_extremes_${column}`).execute(db);
}
