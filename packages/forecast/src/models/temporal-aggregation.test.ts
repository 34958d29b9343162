import { describe, expect, it } from 'vitest';
import { naive } from './naive';
import { adida, aggregate, mapa, type BaseForecaster } from './temporal-aggregation';

const lastValue: BaseForecaster = (values, horizon) => ({
  model: 'naive',
  mean: new Array<number>(horizon).fill(values[values.length - 1]!),
  sd: new Array<number>(horizon).fill(2),
});

// Worked by hand from the definitions of Nikolopoulos et al. (JORS 2011) and Kourentzes et al. (IJF 2014).
describe('temporal aggregation', () => {
  it('sums buckets aligned to the end, dropping the oldest n mod k values', () => {
    expect(aggregate([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4)).toEqual([18, 34]);
    expect(aggregate([1, 2, 3], 1)).toEqual([1, 2, 3]);
  });

  it('ADIDA: the bucket forecast / k for each of its periods, the spread over √k', () => {
    const f = adida([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 6, 4, lastValue)!;
    expect(f.model).toBe('adida');
    expect(f.mean).toEqual([8.5, 8.5, 8.5, 8.5, 8.5, 8.5]);
    expect(f.sd).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('MAPA: the mean of the levels’ disaggregated forecasts, skipping levels with too few buckets', () => {
    const values = [4, 6, 5, 7, 6, 8, 9, 10];
    // Level 1: naïve 10. Level 2: buckets 10, 12, 14, 19 → 19 / 2 = 9.5. Level 4: only 2 buckets.
    const f = mapa(values, 3, [1, 2, 4], (v, h) => naive(v, h), 3)!;
    expect(f.mean).toEqual([9.75, 9.75, 9.75]);
    expect(mapa(values, 3, [4], (v, h) => naive(v, h), 3)).toBeUndefined();
  });
});
