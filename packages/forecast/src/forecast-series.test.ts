import { describe, expect, it } from 'vitest';
import { distinctWindows, forecastSeries, latestLevelShift } from './forecast-series';

describe('forecastSeries', () => {
  it('forecasts a constant series as the constant, with collapsed intervals', () => {
    const result = forecastSeries(new Array<number>(60).fill(42), { horizon: 5, seasonLength: 52 });
    result.ensemble.forEach((v) => expect(v).toBeCloseTo(42, 6));
    expect(result.naive).toEqual([42, 42, 42, 42, 42]);
    result.upper95.forEach((v) => expect(v).toBeCloseTo(42, 4));
    expect(result.demandClass).toBe('smooth');
  });

  it('follows a clear weekly seasonal pattern better than naïve', () => {
    const values = Array.from(
      { length: 4 * 52 + 13 },
      (_, t) => 100 + 30 * Math.sin((2 * Math.PI * t) / 52) + (t % 3),
    );
    const train = values.slice(0, -13);
    const actual = values.slice(-13);
    const result = forecastSeries(train, { horizon: 13, seasonLength: 52.18 });
    const error = (f: number[]): number => f.reduce((s, v, j) => s + Math.abs(v - actual[j]!), 0);
    expect(error(result.ensemble)).toBeLessThan(error(result.naive) / 2);
    result.ensemble.forEach((v, j) => {
      expect(result.lower80[j]!).toBeLessThanOrEqual(v);
      expect(result.lower95[j]!).toBeLessThanOrEqual(result.lower80[j]!);
      expect(result.upper95[j]!).toBeGreaterThanOrEqual(result.upper80[j]!);
    });
    expect(Number.isFinite(result.backtest.mape)).toBe(true);
  });

  it('routes intermittent demand to the Croston family and never forecasts below zero', () => {
    const values = Array.from({ length: 80 }, (_, t) => (t % 4 === 0 ? 5 + (t % 3) : 0));
    const result = forecastSeries(values, { horizon: 4, seasonLength: 52 });
    expect(result.demandClass).toBe('intermittent');
    expect(['croston', 'sba', 'tsb']).toContain(result.model);
    result.lower95.forEach((v) => expect(v).toBeGreaterThanOrEqual(0));
    expect(result.ensemble[0]!).toBeGreaterThan(0.5);
    expect(result.ensemble[0]!).toBeLessThan(3);
  });

  it('handles very short series', () => {
    expect(forecastSeries([7], { horizon: 2, seasonLength: 52 }).ensemble).toEqual([7, 7]);
    expect(forecastSeries([], { horizon: 2, seasonLength: 52 }).ensemble).toEqual([0, 0]);
    expect(forecastSeries([3, 4, 5, 6], { horizon: 2, seasonLength: 52 }).ensemble).toHaveLength(2);
  });

  it('is deterministic', () => {
    const values = Array.from({ length: 120 }, (_, t) => 50 + 0.3 * t + 5 * Math.sin(t * 0.9));
    expect(forecastSeries(values, { horizon: 13, seasonLength: 52 })).toEqual(
      forecastSeries(values, { horizon: 13, seasonLength: 52 }),
    );
  });
});

describe('the weighted ensemble', () => {
  it('combines every member on every window with weights summing to 1, and is their weighted mean', () => {
    const values = Array.from({ length: 700 }, (_, t) => 200 + 0.1 * t + 20 * Math.sin(t * 0.7) + (t % 5));
    const result = forecastSeries(values, { horizon: 4, seasonLength: 52.18 });
    // Windows 520 and all × dotm-log, and a window since the level shift where there is one.
    expect(result.members.map((m) => `${m.model}@${m.window ?? 'all'}`).sort()).toEqual([
      'dotm-log@520',
      'dotm-log@all',
    ]);
    expect(result.members.reduce((t, m) => t + m.weight, 0)).toBeCloseTo(1, 12);
    const weighted = result.ensemble.map((_, j) =>
      result.members.reduce((t, m) => t + m.weight * m.mean[j]!, 0),
    );
    weighted.forEach((v, j) => expect(result.ensemble[j]!).toBeCloseTo(v, 9));
    expect(result.model).toBe('weighted(dotm-log) on last 520/all');
  });

  it('fits a member listed in memberWindows on those windows only', () => {
    const values = Array.from({ length: 700 }, (_, t) => 200 + 0.1 * t + 20 * Math.sin(t * 0.7) + (t % 5));
    const result = forecastSeries(values, {
      horizon: 4,
      seasonLength: 52.18,
      tuning: {
        windows: [156, 520, Infinity],
        members: ['ces', 'arima'],
        memberWindows: { arima: [156] },
        levelShiftWindow: false,
      },
    });
    expect(result.members.map((m) => `${m.model}@${m.window ?? 'all'}`).sort()).toEqual([
      'arima@156',
      'ces@156',
      'ces@520',
      'ces@all',
    ]);
    // Shorter than the window: it collapses into "all", as the others' windows do.
    const short = forecastSeries(values.slice(-120), {
      horizon: 4,
      seasonLength: 52.18,
      tuning: {
        windows: [156, 520, Infinity],
        members: ['ces', 'arima'],
        memberWindows: { arima: [156] },
        levelShiftWindow: false,
      },
    });
    expect(short.members.map((m) => `${m.model}@${m.window ?? 'all'}`).sort()).toEqual([
      'arima@all',
      'ces@all',
    ]);
  });
});

describe('latestLevelShift', () => {
  // Level 10 until week 59, 20 from week 60, ±0.5 alternating noise: week-to-week changes are 1
  // (median), the step is 10 > 6. Scanning back from week 74, the first k whose 13 weeks before
  // are mostly at the old level is 66 (53–65 holds seven 10s): the window is 100 − 66 = 34.
  const wiggle = (t: number): number => (t % 2 === 0 ? -0.5 : 0.5);
  it('finds the weeks since a step change', () => {
    const values = Array.from({ length: 100 }, (_, t) => (t < 60 ? 10 : 20) + wiggle(t));
    expect(latestLevelShift(values)).toBe(34);
  });
  it('answers Infinity without a shift', () => {
    expect(latestLevelShift(Array.from({ length: 100 }, (_, t) => 10 + wiggle(t)))).toBe(Infinity);
    expect(latestLevelShift(new Array<number>(100).fill(5))).toBe(Infinity);
  });
});

describe('distinctWindows', () => {
  it('keeps windows shorter than the history and one "all" for the rest', () => {
    expect(distinctWindows([104, 156, 260], 200)).toEqual([104, 156, Infinity]);
    expect(distinctWindows([104, 156], 100)).toEqual([Infinity]);
    expect(distinctWindows([156, 520, Infinity, 156], 300)).toEqual([156, Infinity]);
  });
});
