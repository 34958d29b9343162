import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DemandRecord } from './demand-record';
import {
  DEMAND_RECORD_FIELDS,
  EDITABLE_FIELDS,
  FORECAST_FIELDS,
  MONEY_FIELDS,
  PERCENT_FIELDS,
  PLAN_OUTPUT_FIELDS,
  SUMMED_FIELDS,
  fieldLabel,
} from './demand-record-fields';
import { PLAN_OUTPUT_FIELD_OF } from './plan-chain';

describe('the demand record field catalogue', () => {
  it('holds every field of the record type exactly once', () => {
    expectTypeOf<(typeof DEMAND_RECORD_FIELDS)[number]['field']>().toEqualTypeOf<keyof DemandRecord>();
    const fields = DEMAND_RECORD_FIELDS.map((s) => s.field);
    expect(new Set(fields).size).toBe(fields.length);
    expect(fields).toHaveLength(44);
  });

  it('gives each column to one field only', () => {
    const columns = DEMAND_RECORD_FIELDS.filter((s) => s.column !== null).map(
      (s) => `${s.table}.${s.column}`,
    );
    expect(new Set(columns).size).toBe(columns.length);
  });

  it('lets planners edit exactly the six fields of spec §5', () => {
    expect(EDITABLE_FIELDS).toEqual([
      'Rev_Pln_Ovrd_Percent',
      'Rev_Pln_Ovrd_Units',
      'SOP_Pln_Ovrd_Percent',
      'SOP_Pln_Ovrd_Units',
      'Reason_Code',
      'Comments',
    ]);
  });

  it('sums the units, the money of actuals, plans and publishes, and the unit overrides, in record order', () => {
    expect(SUMMED_FIELDS).toEqual([
      'Act_Bkg_Units',
      'Act_Bkg_Cost',
      'Act_Rev_Dlrs',
      'Naïve_Rev_Mfg_Fcst_Bk_Units',
      'Ensemble_Fcst_Units',
      'Rev_Pln_Ovrd_Units',
      'Prelim_Pln_Units',
      'Prelim_Pln_Cost',
      'Prelim_Pln_Rev_Dlrs',
      'SOP_Pln_Ovrd_Units',
      'Final_Pln_Units',
      'Final_Bk_Pln_Cost',
      'Final_Pln_Rev_Dlrs',
      'Delta_Prelim_to_Final_Pln_Cost',
      'Delta_Prelim_to_Final_Pln_Units',
      'Delta_Prelim_to_Final_Pln_Rev_Dlrs',
      'P1_Pub_Pln_Units',
      'P1_Pub_Pln_Cost',
      'P1_Pub_Pln_Rev_Dlrs',
      'P2_Pub_Pln_Units',
      'P2_Pub_Pln_Cost',
      'P2_Pub_Pln_Rev_Dlrs',
    ]);
  });

  it('marks as plan outputs exactly what the plan chain derives', () => {
    expect([...PLAN_OUTPUT_FIELDS].sort()).toEqual(Object.values(PLAN_OUTPUT_FIELD_OF).sort());
    expect(PLAN_OUTPUT_FIELDS).toHaveLength(9);
  });

  it('has the two statistical forecasts and the two override percents', () => {
    expect(FORECAST_FIELDS).toEqual(['Naïve_Rev_Mfg_Fcst_Bk_Units', 'Ensemble_Fcst_Units']);
    expect(PERCENT_FIELDS).toEqual(['Rev_Pln_Ovrd_Percent', 'SOP_Pln_Ovrd_Percent']);
  });

  it('values cost fields at unit cost and revenue fields at unit price', () => {
    expect(MONEY_FIELDS).toHaveLength(13);
    for (const spec of DEMAND_RECORD_FIELDS) {
      if (spec.kind !== 'money') expect(spec.basis, spec.field).toBeNull();
      else expect(spec.basis, spec.field).toBe(/(Rev|Dlrs)/.test(spec.field) ? 'revenue' : 'cost');
    }
  });

  it('labels fields with the grid headers and leaves other names as they are', () => {
    expect(fieldLabel('Final_Bk_Pln_Cost')).toBe('Final Plan Cost');
    expect(fieldLabel('SOP_Pln_Ovrd_Percent')).toBe('S&OP Plan Override %');
    expect(fieldLabel('recordCount')).toBe('recordCount');
  });
});
