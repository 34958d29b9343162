import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  derivedValuesFit,
  INT4_MAX,
  MONEY_LIMIT,
  ZDerivedValuesSchema,
  ZListDemandRecordsQuerySchema,
  ZUpdateDemandRecordSchema,
} from './demand-record.schema';

const firstIssue = (result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => result.error?.issues[0];

describe('update schema', () => {
  it('accepts the editable fields within bounds', () => {
    const parsed = ZUpdateDemandRecordSchema.parse({
      Rev_Pln_Ovrd_Percent: 12.25,
      SOP_Pln_Ovrd_Units: 0,
      Reason_Code: 'Market Trend',
      Comments: null,
      version: 3,
    });
    expect(parsed.Rev_Pln_Ovrd_Percent).toBe(12.25);
  });

  it.each([
    [{ Rev_Pln_Ovrd_Percent: 100.01 }, 'Rev_Pln_Ovrd_Percent', 'must be at most 100'],
    [{ SOP_Pln_Ovrd_Percent: -1 }, 'SOP_Pln_Ovrd_Percent', 'must be at least 0'],
    [{ SOP_Pln_Ovrd_Percent: 1.234 }, 'SOP_Pln_Ovrd_Percent', 'must have at most 2 decimals'],
    [{ Rev_Pln_Ovrd_Units: 1.5 }, 'Rev_Pln_Ovrd_Units', 'must be a whole number'],
    [{ Rev_Pln_Ovrd_Units: -3 }, 'Rev_Pln_Ovrd_Units', 'must be 0 or more'],
    [{ Reason_Code: 'Because' }, 'Reason_Code', 'must be one of'],
    [{ Comments: 'x'.repeat(501) }, 'Comments', 'must be at most 500 characters'],
    [{ Rev_Pln_Ovrd_Units: '12' }, 'Rev_Pln_Ovrd_Units', 'must be a number'],
  ])('refuses %j naming the field', (body, field, message) => {
    const issue = firstIssue(ZUpdateDemandRecordSchema.safeParse(body));
    expect(issue?.path).toEqual([field]);
    expect(issue?.message).toContain(message);
  });

  it('refuses a field that is not editable', () => {
    const issue = firstIssue(ZUpdateDemandRecordSchema.safeParse({ Final_Pln_Units: 5 }));
    expect(issue?.message).toContain('is not an editable field');
  });
});

describe('list query schema', () => {
  it('defaults the limit and splits multi-values', () => {
    const parsed = ZListDemandRecordsQuerySchema.parse({
      bu: 'A,B',
      region: ['NA', 'EMEA'],
      from: '2026-01-04',
    });
    expect(parsed.limit).toBe(1000);
    expect(parsed.bu).toEqual(['A', 'B']);
    expect(parsed.region).toEqual(['NA', 'EMEA']);
    expect(parsed.from).toBe('20260104');
  });

  it('bounds the limit', () => {
    expect(firstIssue(ZListDemandRecordsQuerySchema.safeParse({ limit: '5001' }))?.message).toBe(
      'must be at most 5000',
    );
    expect(firstIssue(ZListDemandRecordsQuerySchema.safeParse({ limit: 'ten' }))?.path).toEqual(['limit']);
  });
});

describe('derivedValuesFit', () => {
  const none = {
    Act_Bkg_Cost: null,
    Act_Rev_Dlrs: null,
    Prelim_Pln_Units: null,
    Prelim_Pln_Cost: null,
    Prelim_Pln_Rev_Dlrs: null,
    Final_Pln_Units: null,
    Final_Bk_Pln_Cost: null,
    Final_Pln_Rev_Dlrs: null,
  };

  it.each([
    ['units at the int4 limit', { Final_Pln_Units: 2_147_483_647 }, true],
    ['units one past it', { Prelim_Pln_Units: 2_147_483_648 }, false],
    ['money just below 10^14', { Final_Pln_Rev_Dlrs: MONEY_LIMIT - 0.015625 }, true],
    ['money of 10^14', { Act_Bkg_Cost: 100_000_000_000_000 }, false],
    ['a large negative amount (the columns bound only from above)', { Final_Bk_Pln_Cost: -1e20 }, true],
    ['NaN', { Prelim_Pln_Cost: Number.NaN }, false],
    ['infinite units', { Final_Pln_Units: Number.NEGATIVE_INFINITY }, false],
    ['all null', {}, true],
  ])('%s: %j fits = %s', (_, values, expected) => {
    expect(derivedValuesFit({ ...none, ...values })).toBe(expected);
    expect(ZDerivedValuesSchema.safeParse({ ...none, ...values }).success).toBe(expected);
  });

  it('answers what the schema answers for any values', () => {
    const value = fc.option(
      fc.oneof(fc.double(), fc.constantFrom(INT4_MAX, INT4_MAX + 1, MONEY_LIMIT - 0.015625, MONEY_LIMIT)),
    );
    fc.assert(
      fc.property(fc.record(Object.fromEntries(Object.keys(none).map((k) => [k, value]))), (values) => {
        const derived = values as Parameters<typeof derivedValuesFit>[0];
        expect(derivedValuesFit(derived)).toBe(ZDerivedValuesSchema.safeParse(derived).success);
      }),
      { numRuns: 2000 },
    );
  });
});
