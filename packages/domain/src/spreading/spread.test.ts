import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadPercent, spreadUnits, type SpreadItem } from './spread';

const item = (key: string, weight: number, extra: Partial<SpreadItem> = {}): SpreadItem => ({
  key,
  current: weight,
  weight,
  fallbackWeight: 0,
  locked: false,
  ...extra,
});

const valuesOf = (outcome: ReturnType<typeof spreadUnits>) => {
  if (!outcome.ok) throw new Error(outcome.reason);
  return Object.fromEntries(outcome.values);
};

describe('spreadUnits', () => {
  it('shares in proportion to the final plan, largest remainder first', () => {
    // 100 over weights 1:1:1 → quotas 33.33 each; the one spare unit goes to the first.
    expect(valuesOf(spreadUnits(100, [item('a', 10), item('b', 10), item('c', 10)]))).toEqual({
      a: 34,
      b: 33,
      c: 33,
    });
    // 10 over 5:3:2 → 5, 3, 2 exactly.
    expect(valuesOf(spreadUnits(10, [item('a', 50), item('b', 30), item('c', 20)]))).toEqual({
      a: 5,
      b: 3,
      c: 2,
    });
    // 7 over 5:3:2 → quotas 3.5, 2.1, 1.4 → floors 3, 2, 1 (6) → the spare unit to a (.5).
    expect(valuesOf(spreadUnits(7, [item('a', 50), item('b', 30), item('c', 20)]))).toEqual({
      a: 4,
      b: 2,
      c: 1,
    });
  });

  it('keeps locked records and spreads the rest of the total over the others', () => {
    // Locked b holds 40; 100 − 40 = 60 over a:c = 10:20 → 20, 40.
    const outcome = spreadUnits(100, [item('a', 10), item('b', 40, { locked: true }), item('c', 20)]);
    expect(valuesOf(outcome)).toEqual({ a: 20, c: 40 });
  });

  it('falls back to the statistical forecast, then to equal shares', () => {
    const byForecast = spreadUnits(9, [
      item('a', 0, { fallbackWeight: 2.5 }),
      item('b', 0, { fallbackWeight: 0.5 }),
    ]);
    expect(valuesOf(byForecast)).toEqual({ a: 8, b: 1 }); // quotas 7.5, 1.5 → tie goes to a
    expect(valuesOf(spreadUnits(5, [item('a', 0), item('b', 0)]))).toEqual({ a: 3, b: 2 });
  });

  it('refuses a total below what locked records hold, and a cell whose records are all locked', () => {
    expect(spreadUnits(10, [item('a', 5), item('b', 30, { locked: true })])).toEqual({
      ok: false,
      reason: 'below-locked',
      lockedTotal: 30,
    });
    expect(spreadUnits(10, [item('a', 5, { locked: true })])).toMatchObject({
      ok: false,
      reason: 'all-locked',
    });
  });

  const items = fc.uniqueArray(
    fc.record({
      key: fc.uuid(),
      current: fc.integer({ min: 0, max: 100_000 }),
      weight: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000_000 })),
      fallbackWeight: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5_000, noNaN: true })),
      locked: fc.boolean(),
    }),
    { minLength: 1, maxLength: 60, selector: (i: SpreadItem) => i.key },
  );

  it('property: spread then roll up gives the typed total; locked records never move', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 0, max: 10_000_000 }), (records, total) => {
        const outcome = spreadUnits(total, records);
        const lockedTotal = records.filter((r) => r.locked).reduce((s, r) => s + r.current, 0);
        if (!outcome.ok) {
          expect(records.every((r) => r.locked) || total < lockedTotal).toBe(true);
          return;
        }
        for (const record of records) expect(outcome.values.has(record.key)).toBe(!record.locked);
        const spread = [...outcome.values.values()];
        expect(spread.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
        expect(spread.reduce((a, b) => a + b, 0) + lockedTotal).toBe(total);
      }),
    );
  });

  it('property: each share is within one unit of its exact proportional quota', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 0, max: 1_000_000 }), (records, total) => {
        const free = records.map((r) => ({ ...r, locked: false }));
        const outcome = spreadUnits(total, free);
        if (!outcome.ok) return;
        const weights = free.map((r) => r.weight);
        const sum = weights.reduce((a, b) => a + b, 0);
        if (sum === 0) return;
        free.forEach((r, i) => {
          expect(Math.abs(outcome.values.get(r.key)! - (total * weights[i]!) / sum)).toBeLessThan(1 + 1e-6);
        });
      }),
    );
  });
});

describe('spreadPercent', () => {
  it('gives every unlocked record the typed percent', () => {
    const outcome = spreadPercent(7.5, [item('a', 1), item('b', 1, { locked: true })]);
    expect(outcome.ok && Object.fromEntries(outcome.values)).toEqual({ a: 7.5 });
  });
});
