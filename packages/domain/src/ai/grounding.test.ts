import { describe, expect, it } from 'vitest';
import { ungroundedFigures } from './grounding';

describe('grounding of a model answer', () => {
  const results = [{ total: { finalRevenue: 4366221.37, finalUnits: 64618, records: 360 }, change: 15 }];

  it('accepts figures a tool returned, at the precision they are written with', () => {
    expect(
      ungroundedFigures('Revenue **$4,366,221** on 64,618 units (360 records), +15.0%.', results, ''),
    ).toEqual([]);
    expect(ungroundedFigures('About $4.37M of revenue.', results, '')).toEqual([]);
    expect(ungroundedFigures('Up 15% as you asked.', [], 'What if demand is up 15%?')).toEqual([]);
  });

  it('ignores dates, quarters, ids, years and small counts', () => {
    expect(
      ungroundedFigures('1. In 2026-Q3 (Q3 of 2026), PRD-00042 on 2026-11-15: 3 records.', [], ''),
    ).toEqual([]);
  });

  it('names the figures no tool returned', () => {
    expect(ungroundedFigures('Revenue $4,400,000 and 70,000 units; margin 31.5%.', results, '')).toEqual([
      '$4,400,000',
      '70,000',
      '31.5%',
    ]);
  });
});
