import { describe, expect, it } from 'vitest';
import { minTrace } from './reconcile';
import { reconcileLevel, type LevelNode } from './reconcile-level';

// Parent 10 over children 3 and 5: incoherent by 2 at the one step.
const node = (value: number, variance: number, share: number): LevelNode => ({
  forecast: [value],
  variance,
  share,
});
const S = [
  [1, 1],
  [1, 0],
  [0, 1],
];

describe('reconciling a parent with its children', () => {
  it('bottom-up keeps the children', () => {
    expect(reconcileLevel('bottom-up', node(10, 4, 4), [node(3, 1, 1), node(5, 3, 3)])).toEqual([[3], [5]]);
  });

  it("top-down splits the parent by the children's shares, equally without any", () => {
    expect(reconcileLevel('top-down', node(10, 4, 4), [node(3, 1, 1), node(5, 3, 3)])).toEqual([
      [2.5],
      [7.5],
    ]);
    expect(reconcileLevel('top-down', node(10, 4, 0), [node(3, 1, 0), node(5, 3, 0)])).toEqual([[5], [5]]);
  });

  it('MinT-OLS shares the gap of 2 equally among the three nodes: children 3 + 2/3 and 5 + 2/3', () => {
    const [a, b] = reconcileLevel('mint-ols', node(10, 4, 4), [node(3, 1, 1), node(5, 3, 3)]);
    expect(a![0]).toBeCloseTo(11 / 3, 12);
    expect(b![0]).toBeCloseTo(17 / 3, 12);
    // The closed form is the dense MinT with W = I.
    const dense = minTrace(
      S,
      [10, 3, 5],
      [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    );
    expect(dense[1]).toBeCloseTo(a![0]!, 12);
    expect(dense[2]).toBeCloseTo(b![0]!, 12);
  });

  it('MinT-WLS shares it by variance 4 : 1 : 3, so the children get 2/8 and 6/8: 3.25 and 5.75', () => {
    const [a, b] = reconcileLevel('mint-wls', node(10, 4, 4), [node(3, 1, 1), node(5, 3, 3)]);
    expect(a![0]).toBeCloseTo(3.25, 12);
    expect(b![0]).toBeCloseTo(5.75, 12);
    const dense = minTrace(
      S,
      [10, 3, 5],
      [
        [4, 0, 0],
        [0, 1, 0],
        [0, 0, 3],
      ],
    );
    [9, 3.25, 5.75].forEach((v, i) => expect(dense[i]).toBeCloseTo(v, 12));
  });

  it('MinT-WLS falls back to equal weights when a node has no variance (a flat history)', () => {
    expect(reconcileLevel('mint-wls', node(10, 4, 4), [node(3, 0, 1), node(5, 3, 3)])).toEqual(
      reconcileLevel('mint-ols', node(10, 4, 4), [node(3, 0, 1), node(5, 3, 3)]),
    );
  });
});
