import { describe, expect, it } from 'vitest';
import { binEdges, mulberry32, predictGbm, trainGbm, type GbmData, type GbmParams } from './gbm';

/** One feature per row. */
function oneFeature(x: number[], y: number[]): GbmData {
  return { x: Float64Array.from(x), y: Float64Array.from(y), rows: x.length, features: 1 };
}

const exact: GbmParams = { trees: 1, depth: 1, learningRate: 1, minLeaf: 1, bins: 8, subsample: 1, seed: 1 };

describe('binEdges', () => {
  it('cuts at evenly spaced ranks and keeps distinct edges only', () => {
    // Ranks ⌈b·8/4⌉ − 1 = 1, 3, 5, 7.
    expect(binEdges([8, 1, 7, 2, 6, 3, 5, 4], 4)).toEqual([2, 4, 6, 8]);
    expect(binEdges([1, 1, 1, 1, 2, 2, 3, 3], 4)).toEqual([1, 2, 3]);
    expect(binEdges([Number.NaN, 5], 4)).toEqual([5]);
  });
});

describe('trainGbm', () => {
  it('fits a stump at the threshold that separates the two levels', () => {
    // Base 3, residuals −2,−2,−2,+2,+2,+2. Split after x = 3: 6²/3 + 6²/3 = 24; after x = 2:
    // 4²/2 + 4²/4 = 12; so x ≤ 3 goes left with leaf −2, the rest right with +2.
    const model = trainGbm(oneFeature([1, 2, 3, 4, 5, 6], [1, 1, 1, 5, 5, 5]), exact);
    expect(model.base).toBe(3);
    const tree = model.trees[0]!;
    expect(tree.feature[0]).toBe(0);
    expect(tree.threshold[0]).toBe(3);
    expect(predictGbm(model, [3])).toBe(1);
    expect(predictGbm(model, [3.5])).toBe(5);
    expect(predictGbm(model, [-100])).toBe(1);
  });

  it('shrinks each tree by the learning rate and fits the residuals of the trees before', () => {
    // Tree 1: leaves ∓2·0.5 → 2 and 4; residuals ∓1; tree 2: leaves ∓0.5 → 1.5 and 4.5.
    const model = trainGbm(oneFeature([1, 2, 3, 4, 5, 6], [1, 1, 1, 5, 5, 5]), {
      ...exact,
      trees: 2,
      learningRate: 0.5,
    });
    expect(predictGbm(model, [1])).toBe(1.5);
    expect(predictGbm(model, [6])).toBe(4.5);
  });

  it('keeps at least minLeaf rows in each leaf', () => {
    // Base 10/6; with minLeaf 2 the spike cannot stand alone. Candidates x ≤ 2, 3, 4 give
    // 8.33, 16.67, 33.33 (Σ²/n both sides): x ≤ 4 wins. Right leaf: mean residual 5 − 10/6, so
    // x = 5 predicts 5; left leaf −10/6, so x = 2 predicts 0.
    const model = trainGbm(oneFeature([1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 10]), { ...exact, minLeaf: 2 });
    expect(model.trees[0]!.threshold[0]).toBe(4);
    expect(predictGbm(model, [2])).toBeCloseTo(0, 12);
    expect(predictGbm(model, [5])).toBeCloseTo(5, 12);
  });

  it('sends missing values left, in training and in prediction', () => {
    // Missing rows are the low group: the split is "missing vs not" (threshold −∞).
    const model = trainGbm(oneFeature([Number.NaN, Number.NaN, 1, 2], [0, 0, 10, 10]), exact);
    expect(model.trees[0]!.threshold[0]).toBe(-Infinity);
    expect(predictGbm(model, [Number.NaN])).toBe(0);
    expect(predictGbm(model, [-1000])).toBe(10);
  });

  it('does not split on a feature with one value, and picks the informative one', () => {
    const data: GbmData = {
      x: Float64Array.from([7, 1, 7, 2, 7, 3, 7, 4]),
      y: Float64Array.from([0, 0, 4, 4]),
      rows: 4,
      features: 2,
    };
    const model = trainGbm(data, exact);
    expect(model.trees[0]!.feature[0]).toBe(1);
    expect(model.trees[0]!.threshold[0]).toBe(2);
  });

  it('is deterministic for a seed and differs with another seed', () => {
    const random = mulberry32(7);
    const rows = 400;
    const x = Float64Array.from({ length: rows * 3 }, () => random());
    const y = Float64Array.from({ length: rows }, (_, i) => Math.sin(6 * x[i * 3]!) + x[i * 3 + 1]! ** 2);
    const data = { x, y, rows, features: 3 };
    const params: GbmParams = {
      trees: 30,
      depth: 3,
      learningRate: 0.1,
      minLeaf: 5,
      bins: 16,
      subsample: 0.5,
      seed: 3,
    };
    const a = trainGbm(data, params);
    const b = trainGbm(data, params);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(JSON.stringify(trainGbm(data, { ...params, seed: 4 }))).not.toBe(JSON.stringify(a));
    // And it learns: the squared error falls well below the variance of y.
    let variance = 0;
    let error = 0;
    const mean = y.reduce((s, v) => s + v, 0) / rows;
    for (let i = 0; i < rows; i++) {
      variance += (y[i]! - mean) ** 2;
      error += (y[i]! - predictGbm(a, x.subarray(i * 3, i * 3 + 3))) ** 2;
    }
    expect(error).toBeLessThan(variance / 4);
  });

  it('mulberry32 gives the same sequence for the same seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    for (let i = 0; i < 5; i++) expect(a()).toBe(b());
  });
});
