import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, MIN_HISTORY, levelAt, trainingRows } from './windows';

/** values[i] = i + 1: every level and ratio can be worked out by hand. */
const ramp = (length: number): number[] => Array.from({ length }, (_, i) => i + 1);

describe('trainingRows', () => {
  it('takes the newest origins whose target is inside the usable part, stride apart', () => {
    const rows = trainingRows([ramp(100)], { step: 3, usable: [90], originsPerSeries: 2, stride: 2 });
    expect(rows.rows).toBe(2);
    // Origin t = 90 − 1 − 3 = 86: level = mean(values[74..86]) = mean(75 … 87) = 81; the target is
    // values[89] = 90, the last usable value; the first feature is values[86] / 81 = 87 / 81.
    expect(rows.y[0]).toBeCloseTo(90 / 81, 12);
    expect(rows.x[0]).toBeCloseTo(87 / 81, 12);
    // Origin 84: level 79, target values[87] = 88.
    expect(rows.y[1]).toBeCloseTo(88 / 79, 12);
    expect(rows.x[FEATURE_COUNT]).toBeCloseTo(85 / 79, 12);
  });

  it('never reads a value at or after the usable part (features or targets)', () => {
    const values = ramp(200).map((v) => 50 + 10 * Math.sin(v) + v * 0.1);
    const usable = 160;
    const changed = values.map((v, i) => (i >= usable ? v * 1000 + 7 : v));
    const options = { step: 13, usable: [usable], originsPerSeries: 50, stride: 1 };
    const a = trainingRows([values], options);
    const b = trainingRows([changed], options);
    expect(a.rows).toBeGreaterThan(0);
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    expect(Array.from(b.y)).toEqual(Array.from(a.y));
  });

  it('stops where an origin would lack the history its features need', () => {
    // Usable 80, step 1: origins 78, 77, … down to MIN_HISTORY − 1 = 64 → 15 rows.
    const rows = trainingRows([ramp(80)], { step: 1, usable: [80], originsPerSeries: 100, stride: 1 });
    expect(rows.rows).toBe(80 - 1 - 1 - (MIN_HISTORY - 1) + 1);
  });

  it('skips origins whose level is not positive', () => {
    const values = ramp(120).map((v, i) => (i >= 90 && i <= 110 ? 0 : v));
    expect(levelAt(values, 102)).toBeNull();
    const rows = trainingRows([values], { step: 1, usable: [120], originsPerSeries: 1, stride: 1 });
    // The only origin taken is t = 118, whose last 13 values include positive ones: a row.
    expect(rows.rows).toBe(1);
    const none = trainingRows([values], { step: 8, usable: [120], originsPerSeries: 1, stride: 1 });
    // t = 111: values[99 … 111] = 0 … 0, 112 → level 112/13 > 0, still a row.
    expect(none.rows).toBe(1);
    const zero = trainingRows([values], { step: 10, usable: [120], originsPerSeries: 1, stride: 1 });
    // t = 109: values[97 … 109] all 0 → no level, no row.
    expect(zero.rows).toBe(0);
  });
});
