import { sql, type Kysely } from 'kysely';
import { addToTotals, refreshProductTotals, withProduct } from './0002-planning-grid';
import { rollUpFunction, type ExtraSum } from './0025-roll-up-deltas';

/**
 * Pub Ensemble Forecast at list price in the week totals (issue 11, docs/metrics.md "Data behind
 * the screens"): per BU × region × family slice and week, Σ over the records of
 * list_value(`Ensemble_Fcst_Units`, the product's unit price) and the same at its unit cost. A
 * record's value is rounded to the cent before summing, so a family's figure is exactly the sum of
 * its products' drill-down figures, which read the same function per record.
 *
 * Kept exact in the writing transaction by every path that writes records:
 * - the roll-up trigger (migration 0025's function, redefined from the same text with these sums);
 * - an import's new records, added from SKUs × shapes (imports.repository.ts) with the same function;
 * - a publish moves P1/P2 only, which these sums do not read: nothing to add;
 * - a product that changes slice, price or cost, or is deleted: its own trigger below, after
 *   migration 0002's slice rebuild (which knows only 0002's sums);
 * - rebuild_demand_totals() (the seed's bulk load, tests' reference), redefined to fill them too.
 */

/** A record's units valued at a unit amount (price or cost), to the cent; null without units. */
const LIST_VALUE = `create or replace function list_value(units double precision, amount numeric)
  returns numeric language sql immutable parallel safe
  as $$ select round((units * amount)::numeric, 2) $$`;

/** The kept sums and the product column each values the statistical forecast at. */
export const ENSEMBLE_VALUES = [
  { column: 'ensemble_fcst_rev_dlrs', amount: 'unit_price' },
  { column: 'ensemble_fcst_cost', amount: 'unit_cost' },
] as const;

/** What record row `record` of product row `product` adds to a kept sum (0 without a forecast). */
export const ensembleValue = (record: string, product: string, amount: string): string =>
  `coalesce(list_value(${record}.ensemble_fcst_units, ${product}.${amount}), 0)`;

/** The sums as the roll-up trigger adds them: its pairs join the product as `p`. */
const TRIGGER_SUMS: ExtraSum[] = ENSEMBLE_VALUES.map(({ column, amount }) => ({
  column,
  value: (r) => ensembleValue(r, 'p', amount),
}));

/** `alias`'s slice columns equal those of product row `row`. */
const inSlice = (alias: string, row: string): string =>
  `(${alias}.client_id, ${alias}.bu, ${alias}.pf, ${alias}.region) = (${row}.client_id, ${row}.bu, ${row}.pf, ${row}.region)`;

/**
 * Sets the kept sums of the week totals from the records: of every slice, or of the slice of
 * product row `row` (in the products' trigger). Rows whose records have no statistical forecast
 * keep what they hold, so callers start from 0. One grouped pass over the records, one UPDATE.
 */
const setFromRecords = (row?: 'old' | 'new'): string => `
  update demand_week_totals t set
    ${ENSEMBLE_VALUES.map(({ column }) => `${column} = v.${column}`).join(', ')}
  from (
    select p.client_id, p.bu, p.pf, p.region, r.week_start,
      ${ENSEMBLE_VALUES.map(({ column, amount }) => `sum(${ensembleValue('r', 'p', amount)}) as ${column}`).join(', ')}
    from demand_records r join products p on p.pid = r.pid
    where r.ensemble_fcst_units is not null${row ? ` and ${inSlice('p', row)}` : ''}
    group by 1, 2, 3, 4, 5) v
  where (t.client_id, t.bu, t.pf, t.region, t.week_start) = (v.client_id, v.bu, v.pf, v.region, v.week_start)`;

/** The sums of the slice of product row `row`, recomputed from its records. */
const refreshSlice = (row: 'old' | 'new'): string => `
  update demand_week_totals t set ${ENSEMBLE_VALUES.map(({ column }) => `${column} = 0`).join(', ')}
  where ${inSlice('t', row)};
  ${setFromRecords(row)};`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(LIST_VALUE).execute(db);
  // A constant default adds the columns without rewriting the table; the backfill then writes
  // only the rows that have a forecast, in one set-based statement.
  await sql
    .raw(
      `alter table demand_week_totals
        ${ENSEMBLE_VALUES.map(({ column }) => `add column ${column} numeric not null default 0`).join(', ')}`,
    )
    .execute(db);
  await sql.raw(setFromRecords()).execute(db);
  // The backfill wrote a new version of most rows, doubling the table's pages: rewrite the (small)
  // table in key order, so the worksheet's scan of a client's rows reads no more pages than before.
  await sql`cluster demand_week_totals using demand_week_totals_pkey`.execute(db);

  await sql.raw(rollUpFunction(TRIGGER_SUMS)).execute(db);

  await sql
    .raw(
      `create or replace function rebuild_demand_totals() returns void language plpgsql as $fn$
      begin
        truncate demand_week_totals, demand_product_totals;
        ${addToTotals(withProduct('demand_records', 1))};
        ${setFromRecords()};
        ${refreshProductTotals('select pid from products')};
      end $fn$`,
    )
    .execute(db);

  // Fires after migration 0002's product triggers (same events, names sort later), which rebuild
  // the slices a product left or joined without these sums.
  await sql
    .raw(
      `create function demand_week_totals_values_on_products() returns trigger language plpgsql as $fn$
      begin
        ${refreshSlice('old')}
        if tg_op = 'UPDATE' then ${refreshSlice('new')} end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_week_totals_product_value_update
    after update of client_id, bu, pf, region, unit_price, unit_cost on products for each row
    when ((old.client_id, old.bu, old.pf, old.region, old.unit_price, old.unit_cost)
      is distinct from (new.client_id, new.bu, new.pf, new.region, new.unit_price, new.unit_cost))
    execute function demand_week_totals_values_on_products()`.execute(db);
  await sql`create trigger demand_week_totals_product_value_delete after delete on products
    for each row execute function demand_week_totals_values_on_products()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists demand_week_totals_product_value_delete on products`.execute(db);
  await sql`drop trigger if exists demand_week_totals_product_value_update on products`.execute(db);
  await sql`drop function if exists demand_week_totals_values_on_products()`.execute(db);
  await sql.raw(rollUpFunction()).execute(db);
  await sql
    .raw(
      `create or replace function rebuild_demand_totals() returns void language plpgsql as $fn$
      begin
        truncate demand_week_totals, demand_product_totals;
        ${addToTotals(withProduct('demand_records', 1))};
        ${refreshProductTotals('select pid from products')};
      end $fn$`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table demand_week_totals ${ENSEMBLE_VALUES.map(({ column }) => `drop column ${column}`).join(', ')}`,
    )
    .execute(db);
  await sql`drop function if exists list_value(double precision, numeric)`.execute(db);
}
