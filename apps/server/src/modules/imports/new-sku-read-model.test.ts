import { describe, expect, it } from 'vitest';
import { KEPT_TABLES } from '../../read-model';
import { newRecordsKeeping } from './new-sku-read-model.repository';

const FORECAST_ONLY = ['ensemble_fcst_units', 'prelim_pln_units', 'final_pln_units', 'last_updated_at'];

describe("the read model of new products' records", () => {
  it('keeps every kept table of the registry, leaving those that hold none of the records', () => {
    const keeping = newRecordsKeeping(FORECAST_ONLY);
    expect(keeping.map((k) => k.table)).toEqual(KEPT_TABLES.map((t) => t.name));
    expect(Object.fromEntries(keeping.map((k) => [k.table, k.how]))).toEqual({
      accuracy_sums: 'untouched',
      accuracy_product_sums: 'untouched',
      exception_sums: 'untouched',
      // No record has an override.
      demand_overridden_records: 'untouched',
      demand_product_extremes: 'extremes',
      demand_week_totals: 'add groups',
      demand_slice_totals: 'follows',
      demand_product_totals: 'own rows',
      demand_slice_product_counts: 'follows',
    });
  });

  it('adds the overridden records when a record has an override, and refuses records with actuals', () => {
    const keeping = newRecordsKeeping([...FORECAST_ONLY, 'sop_pln_ovrd_units']);
    expect(keeping.find((k) => k.table === 'demand_overridden_records')?.how).toBe('own rows');
    // The accuracy sums are not kept by this path: an import never inserts actuals.
    expect(() => newRecordsKeeping([...FORECAST_ONLY, 'act_bkg_units'])).toThrow(/may hold the records/);
  });
});
