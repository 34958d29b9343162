import { describe, expect, it } from 'vitest';
import {
  coverage,
  intervalScaleFor,
  rollingOrigins,
  scoreHoldout,
  splitHoldout,
  splitOrigin,
} from './evaluation';

describe('hold-out evaluation', () => {
  it('splits test and dev hold-outs without overlap with what is scored', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(splitHoldout(values, 2, 'test')).toEqual({ train: [1, 2, 3, 4, 5, 6], actual: [7, 8] });
    expect(splitHoldout(values, 2, 'dev')).toEqual({ train: [1, 2, 3, 4], actual: [5, 6] });
  });
  it('gives the naïve benchmark an OWA of 1 and scores others against it', () => {
    const rows = scoreHoldout([
      {
        train: [10, 11, 12],
        actual: [13, 14],
        forecasts: new Map([
          ['naive', [12, 12]],
          ['perfect', [13, 14]],
        ]),
      },
    ]);
    expect(rows.find((r) => r.method === 'naive')!.owa).toBe(1);
    expect(rows.find((r) => r.method === 'perfect')!.owa).toBe(0);
  });
  it('counts interval coverage', () => {
    expect(coverage([[1, 5]], [[0, 0]], [[2, 2]])).toBe(50);
  });

  it('cuts design origins that never reach the scored weeks', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // Origin 1 is the dev split; origin 2 ends two horizons before it.
    expect(splitOrigin(values, 2, 1)).toEqual(splitHoldout(values, 2, 'dev'));
    expect(splitOrigin(values, 2, 3)).toEqual({ train: [1, 2], actual: [3, 4] });
    // Origin 5 would need 12 values; 6 would wrap round to the scored weeks with a negative slice.
    expect(splitOrigin(values, 2, 5)).toEqual({ train: [], actual: [] });
    expect(splitOrigin(values, 2, 6)).toEqual({ train: [], actual: [] });
  });
  it('calibrates an interval factor as the quantile of |error| / spread over z', () => {
    // Ten ratios 0.1 … 1.0: the 80% nearest-rank quantile is the 8th, 0.8; over z = 2 that is 0.4.
    const ratios = [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
    expect(intervalScaleFor(ratios, 0.8, 2)).toBeCloseTo(0.4, 12);
    expect(intervalScaleFor(ratios, 0.95, 1)).toBeCloseTo(1, 12);
    expect(intervalScaleFor([], 0.8, 1)).toBeNaN();
  });

  it('rolling origins: oldest first, 13 weeks apart, each scoring the weeks right after its training part', () => {
    const values = Array.from({ length: 20 }, (_, t) => t + 1);
    const splits = rollingOrigins(values, { horizon: 3, origins: 4, step: 2, minTrain: 10 });
    // Origin 4 scores the last 3 values; each older origin ends 2 values earlier.
    expect(splits[3]).toEqual({ origin: 4, train: values.slice(0, 17), actual: [18, 19, 20] });
    expect(splits[2]).toEqual({ origin: 3, train: values.slice(0, 15), actual: [16, 17, 18] });
    expect(splits[1]).toEqual({ origin: 2, train: values.slice(0, 13), actual: [14, 15, 16] });
    // Origin 1 would train on 11 values: enough for minTrain 10.
    expect(splits[0]).toEqual({ origin: 1, train: values.slice(0, 11), actual: [12, 13, 14] });
    // A series too short for an origin is not scored there.
    const short = rollingOrigins(values, { horizon: 3, origins: 4, step: 2, minTrain: 14 });
    expect(short.map((s) => s?.origin ?? null)).toEqual([null, null, 3, 4]);
    // 12 origins 13 weeks apart over 200 weeks: origin 1 ends 11·13 = 143 weeks before the end, scoring weeks 45–57 (1-based), origin 12 weeks 188–200.
    const weeks = Array.from({ length: 200 }, (_, t) => t + 1);
    const m4 = rollingOrigins(weeks, { horizon: 13, origins: 12, step: 13, minTrain: 1 });
    expect(m4[0]!.actual).toEqual(Array.from({ length: 13 }, (_, j) => 45 + j));
    expect(m4[0]!.train).toHaveLength(44);
    expect(m4[11]!.actual.at(-1)).toBe(200);
    for (const split of m4) expect(split!.train.at(-1)! + 1).toBe(split!.actual[0]);
  });
});
