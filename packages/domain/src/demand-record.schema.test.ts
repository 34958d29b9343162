import { describe, expect, it } from 'vitest';
import { ZListDemandRecordsQuerySchema, ZUpdateDemandRecordSchema } from './demand-record.schema';

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
