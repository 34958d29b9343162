import { describe, expect, it } from 'vitest';
import {
  averageRank,
  businessUnitOrFallback,
  countComments,
  familyOrFallback,
  hasCostOrRevenueData,
  joinComments,
  latestUpdate,
  overrideWeightOf,
  parseAmount,
  pickReasonCodes,
  sumAmounts,
  weightedPercent,
} from './rules';

describe('roll-up rules', () => {
  it('reads amounts, stripping $, commas and spaces', () => {
    expect(parseAmount('$1,234.50')).toBe(1234.5);
    expect(parseAmount(' 2 000 ')).toBe(2000);
    expect(parseAmount('-$5.25')).toBe(-5.25);
    expect(parseAmount(12.5)).toBe(12.5);
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('n/a')).toBeNull();
    expect(parseAmount(null)).toBeNull();
  });

  it('sums to cents and keeps "no value" apart from zero', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in binary; the sum shows 0.3.
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
    expect(sumAmounts(['$1,000.10', 250, null, '2.05'])).toBe(1252.15);
    expect(sumAmounts([null, null])).toBeNull();
    expect(sumAmounts([0, null])).toBe(0);
  });

  it('weights percents by final units, else actual units, else 1', () => {
    expect(overrideWeightOf({ Final_Pln_Units: 120, Act_Bkg_Units: 80 })).toBe(120);
    expect(overrideWeightOf({ Final_Pln_Units: null, Act_Bkg_Units: 80 })).toBe(80);
    expect(overrideWeightOf({ Final_Pln_Units: 0, Act_Bkg_Units: 80 })).toBe(80);
    expect(overrideWeightOf({ Final_Pln_Units: null, Act_Bkg_Units: 0 })).toBe(1);
    expect(overrideWeightOf({ Final_Pln_Units: '1,500', Act_Bkg_Units: null })).toBe(1500);
  });

  it('averages percents weighted, over the records that have one', () => {
    // (10 × 100 + 20 × 300) / 400 = 17.5; the record without a percent does not count.
    expect(
      weightedPercent([
        { percent: 10, weight: 100 },
        { percent: 20, weight: 300 },
        { percent: null, weight: 1000 },
      ]),
    ).toBe(17.5);
    // (5 × 1 + 7.5 × 2) / 3 = 6.666… → 6.67
    expect(
      weightedPercent([
        { percent: 5, weight: 1 },
        { percent: 7.5, weight: 2 },
      ]),
    ).toBe(6.67);
    expect(weightedPercent([{ percent: null, weight: 3 }])).toBeNull();
  });

  it('rounds the average rank half up', () => {
    expect(averageRank([1, 2])).toBe(2); // 1.5
    expect(averageRank([1, 2, 2])).toBe(2); // 1.67
    expect(averageRank([3, 4, 4, 4])).toBe(4); // 3.75
    expect(averageRank([7, null])).toBe(7);
    expect(averageRank([null])).toBeNull();
  });

  it('shows up to 3 distinct comments and counts the rest', () => {
    expect(joinComments(['a', null, ' ', 'b'])).toBe('a; b');
    expect(joinComments(['a', 'b', 'a', 'c'])).toBe('a; b; c');
    expect(joinComments(['a', 'b', 'c', 'd', 'b', 'e'])).toBe('a; b; c (+2 more)');
    expect(joinComments([null, ''])).toBeNull();
  });

  it('counts every record that carries a comment, repeated texts too, blanks not', () => {
    expect(countComments(['a', null, ' ', 'b', 'a', ''])).toBe(3);
    expect(countComments([null, '  '])).toBe(0);
  });

  it('keeps up to 3 distinct reason codes in grid order', () => {
    expect(pickReasonCodes(['Other', null, 'Other', 'Market Trend'])).toEqual(['Other', 'Market Trend']);
    expect(
      pickReasonCodes(['Supply Chain', 'Other', 'Market Trend', 'Seasonal Adjustment', 'Supply Chain']),
    ).toEqual(['Supply Chain', 'Other', 'Market Trend']);
    expect(pickReasonCodes([null])).toEqual([]);
  });

  it('takes the latest update', () => {
    expect(
      latestUpdate(['2026-11-01T10:00:00Z', null, '2026-11-03T08:30:00.000Z', '2026-10-30T00:00:00Z']),
    ).toBe('2026-11-03T08:30:00.000Z');
    expect(latestUpdate([null])).toBeNull();
  });

  it('names blank families Uncategorized and blank business units Unassigned', () => {
    expect(familyOrFallback('')).toBe('Uncategorized');
    expect(familyOrFallback('  ')).toBe('Uncategorized');
    expect(familyOrFallback('Ball Valves')).toBe('Ball Valves');
    expect(businessUnitOrFallback('')).toBe('Unassigned');
    expect(businessUnitOrFallback(null)).toBe('Unassigned');
  });

  it('sees data in any non-zero actual or planned cost or revenue', () => {
    const empty = {
      Act_Bkg_Cost: null,
      Act_Rev_Dlrs: null,
      Prelim_Pln_Cost: null,
      Prelim_Pln_Rev_Dlrs: null,
      Final_Bk_Pln_Cost: null,
      Final_Pln_Rev_Dlrs: null,
    };
    expect(hasCostOrRevenueData(empty)).toBe(false);
    expect(hasCostOrRevenueData({ ...empty, Act_Bkg_Cost: 0, Final_Pln_Rev_Dlrs: 0 })).toBe(false);
    expect(hasCostOrRevenueData({ ...empty, Final_Pln_Rev_Dlrs: '$12.00' })).toBe(true);
    expect(hasCostOrRevenueData({ ...empty, Act_Rev_Dlrs: 3 })).toBe(true);
  });
});
