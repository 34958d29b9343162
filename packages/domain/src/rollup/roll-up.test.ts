import { describe, expect, it } from 'vitest';
import { SUMMED_FIELDS } from '../demand-record';
import { rollUp, type RollupRecord } from './roll-up';

function record(values: Partial<RollupRecord> & Pick<RollupRecord, 'PID' | 'Time_Series_sk'>): RollupRecord {
  const empty = Object.fromEntries(SUMMED_FIELDS.map((f) => [f, null])) as Record<
    (typeof SUMMED_FIELDS)[number],
    null
  >;
  return {
    BU: 'Flow Control',
    PF: 'Ball Valves',
    Rank: null,
    Rev_Pln_Ovrd_Percent: null,
    SOP_Pln_Ovrd_Percent: null,
    Reason_Code: null,
    Comments: null,
    last_updated_at: null,
    ...empty,
    ...values,
  };
}

/**
 * Five records, checked by hand:
 *  A1 PRD-1 Sun 2026-01-04 (Jan, Q1)  final 100 units $1,000.00, rev override 10 %, rank 1
 *  A2 PRD-1 Sun 2026-01-25 (Jan, Q1)  final 300 units $3,000.50, rev override 20 %, rank 1
 *  A3 PRD-1 Sun 2026-04-05 (Apr, Q2)  actual 50 units, cost $250; no plan
 *  B1 PRD-2 Sun 2026-01-04, blank family, final 0 units $0, actual 0, rev override 40 % (weight 1)
 *  C1 PRD-3 Sun 2026-01-11, blank business unit, no cost or revenue at all
 */
const records: RollupRecord[] = [
  record({
    PID: 'PRD-1',
    Time_Series_sk: '20260125',
    Final_Pln_Units: 300,
    Final_Pln_Rev_Dlrs: '$3,000.50',
    Rev_Pln_Ovrd_Percent: 20,
    Rank: 1,
    Reason_Code: 'Market Trend',
    Comments: 'Promo',
    last_updated_at: '2026-01-20T09:00:00.000Z',
  }),
  record({
    PID: 'PRD-1',
    Time_Series_sk: '20260104',
    Final_Pln_Units: 100,
    Final_Pln_Rev_Dlrs: 1000,
    Rev_Pln_Ovrd_Percent: 10,
    Rank: 1,
    Reason_Code: 'Other',
    Comments: 'New customer',
    last_updated_at: '2026-01-02T09:00:00.000Z',
  }),
  record({ PID: 'PRD-1', Time_Series_sk: '20260405', Act_Bkg_Units: 50, Act_Bkg_Cost: 250, Rank: 1 }),
  record({
    PID: 'PRD-2',
    Time_Series_sk: '20260104',
    PF: '',
    Final_Pln_Units: 0,
    Final_Pln_Rev_Dlrs: 0,
    Act_Bkg_Units: 0,
    Act_Rev_Dlrs: 0,
    Rev_Pln_Ovrd_Percent: 40,
    Rank: 4,
    Reason_Code: 'Supply Chain',
    Comments: 'Port strike',
  }),
  record({ PID: 'PRD-3', Time_Series_sk: '20260111', BU: '', PF: 'Gate Valves', Rank: 9 }),
];

describe('rollUp', () => {
  it('rolls up per business unit: sums, weighted percent, rounded rank, comments, codes, latest update', () => {
    const [flow, unassigned] = rollUp(records, 'business_unit', 'none');
    expect(flow).toMatchObject({
      id: 'bu:Flow Control',
      BU: 'Flow Control',
      recordCount: 4,
      Final_Pln_Units: 400,
      Final_Pln_Rev_Dlrs: 4000.5,
      Act_Bkg_Units: 50,
      Act_Bkg_Cost: 250,
      Act_Rev_Dlrs: 0,
      Prelim_Pln_Units: null,
      // (10 × 100 + 20 × 300 + 40 × 1) / (100 + 300 + 1) = 7040 / 401 = 17.556… → 17.56
      Rev_Pln_Ovrd_Percent: 17.56,
      SOP_Pln_Ovrd_Percent: null,
      // (1 + 1 + 1 + 4) / 4 = 1.75 → 2
      Rank: 2,
      // Grid order: PRD-1 Jan 4, Jan 25, then PRD-2.
      Comments: 'New customer; Promo; Port strike',
      // Three of the four records carry a comment.
      commentCount: 3,
      Reason_Codes: ['Other', 'Market Trend', 'Supply Chain'],
      last_updated_at: '2026-01-20T09:00:00.000Z',
    });
    expect(flow).not.toHaveProperty('PF');
    expect(flow).not.toHaveProperty('periodKey');
    // No cost or revenue at all: after the groups that have some.
    expect(unassigned).toMatchObject({ id: 'bu:Unassigned', BU: 'Unassigned', recordCount: 1, Rank: 9 });
    expect(unassigned!.Final_Pln_Rev_Dlrs).toBeNull();
  });

  it('rolls up per product family with the Uncategorized fallback and the shared business unit', () => {
    const rows = rollUp(records, 'category', 'none');
    // PRD-2 only has zeros, so Uncategorized has no data and sorts after Ball Valves; Gate Valves neither.
    expect(rows.map((r) => r.id)).toEqual(['pf:Ball Valves', 'pf:Gate Valves', 'pf:Uncategorized']);
    expect(rows[0]).toMatchObject({ PF: 'Ball Valves', BU: 'Flow Control', recordCount: 3 });
    expect(rows[1]).toMatchObject({ PF: 'Gate Valves', BU: 'Unassigned' });
    expect(rows[2]).toMatchObject({ PF: 'Uncategorized', BU: 'Flow Control', Rev_Pln_Ovrd_Percent: 40 });
  });

  it('groups per product and quarter, labelled, with data first then PID then period', () => {
    const rows = rollUp(records, 'sku', 'quarterly');
    expect(rows.map((r) => r.id)).toEqual([
      'pid:PRD-1|2026-Q1',
      'pid:PRD-1|2026-Q2',
      'pid:PRD-2|2026-Q1',
      'pid:PRD-3|2026-Q1',
    ]);
    expect(rows[0]).toMatchObject({
      PID: 'PRD-1',
      PF: 'Ball Valves',
      BU: 'Flow Control',
      periodKey: '2026-Q1',
      periodLabel: '2026-Q1',
      recordCount: 2,
      Final_Pln_Rev_Dlrs: 4000.5,
      // (10 × 100 + 20 × 300) / 400 = 17.5
      Rev_Pln_Ovrd_Percent: 17.5,
    });
    expect(rows[2]).toMatchObject({ PID: 'PRD-2', PF: 'Uncategorized' });
  });

  it('labels weekly and monthly buckets', () => {
    const weekly = rollUp(records, 'business_unit', 'weekly');
    expect(weekly[0]).toMatchObject({
      id: 'bu:Flow Control|2026-01-04',
      periodLabel: 'Week ending 01/10/2026',
      recordCount: 2,
      Final_Pln_Rev_Dlrs: 1000,
    });
    const monthly = rollUp(records, 'business_unit', 'monthly');
    expect(monthly.map((r) => [r.id, r.periodLabel, r.recordCount])).toEqual([
      ['bu:Flow Control|2026-01', '01/2026', 3],
      ['bu:Flow Control|2026-04', '04/2026', 1],
      ['bu:Unassigned|2026-01', '01/2026', 1],
    ]);
  });

  it('groups per PID per period when the view level is none and a drill-down is chosen', () => {
    const rows = rollUp(records, 'none', 'yearly');
    expect(rows.map((r) => [r.id, r.viewLevel, r.recordCount])).toEqual([
      ['pid:PRD-1|2026', 'none', 3],
      ['pid:PRD-2|2026', 'none', 1],
      ['pid:PRD-3|2026', 'none', 1],
    ]);
    expect(() => rollUp(records, 'none', 'none')).toThrow(/records themselves/);
  });
});
