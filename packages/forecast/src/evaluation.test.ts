import { describe, expect, it } from 'vitest';
import { coverage, scoreHoldout, splitHoldout } from './evaluation';

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
});
