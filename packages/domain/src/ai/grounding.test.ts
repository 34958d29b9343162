import { describe, expect, it } from 'vitest';
import { knownNumbers, safeCut, withholdUngrounded } from './grounding';

describe('grounding of a model answer', () => {
  const results = [{ total: { finalRevenue: 4366221.37, finalUnits: 64618, records: 360 }, change: 15 }];
  const check = (text: string, question = '') =>
    withholdUngrounded(text, knownNumbers(results, question), '[withheld]');

  it('keeps figures a tool returned, at the precision they are written with', () => {
    const text = 'Revenue **$4,366,221** on 64,618 units (360 records), +15.0%. About $4.37M.';
    expect(check(text)).toEqual({ text, withheld: [] });
    expect(withholdUngrounded('Up 15% as asked.', knownNumbers([], 'up 15%?'), '?').withheld).toEqual([]);
  });

  it('ignores dates, quarters, ids, years and small counts', () => {
    const text = '1. In 2026-Q3 (Q3 of 2026), PRD-00042 on 2026-11-15: 3 records.';
    expect(check(text)).toEqual({ text, withheld: [] });
  });

  it('withholds the figures no tool returned, leaving the rest of the text', () => {
    expect(check('Revenue $4,400,000 and 70,000 units; margin 31.5%, from $4,366,221.')).toEqual({
      text: 'Revenue [withheld] and [withheld] units; margin [withheld], from $4,366,221.',
      withheld: ['$4,400,000', '70,000', '31.5%'],
    });
  });

  it('cuts a streamed text only where no figure is split', () => {
    expect(safeCut('Revenue is $4,36')).toBe('Revenue is '.length);
    expect(safeCut('About 4.37 M')).toBe('About '.length);
    expect(safeCut('up 15 %')).toBe('up '.length);
    expect(safeCut('nothing')).toBe(-1);
  });
});
