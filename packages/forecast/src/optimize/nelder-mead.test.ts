import { describe, expect, it } from 'vitest';
import { nelderMead } from './nelder-mead';

describe('nelderMead', () => {
  it('finds the minimum of a shifted quadratic', () => {
    const result = nelderMead((x) => (x[0]! - 0.3) ** 2 + 2 * (x[1]! + 1.5) ** 2, [1, 1], {
      lower: [-10, -10],
      upper: [10, 10],
      tolerance: 1e-10,
    });
    expect(result.x[0]).toBeCloseTo(0.3, 4);
    expect(result.x[1]).toBeCloseTo(-1.5, 4);
  });

  it('minimises the Rosenbrock function (the textbook Nelder–Mead check)', () => {
    const rosenbrock = (x: readonly number[]): number => 100 * (x[1]! - x[0]! ** 2) ** 2 + (1 - x[0]!) ** 2;
    const result = nelderMead(rosenbrock, [-1.2, 1], {
      lower: [-5, -5],
      upper: [5, 5],
      tolerance: 1e-12,
      maxIterations: 5000,
    });
    expect(result.x[0]).toBeCloseTo(1, 3);
    expect(result.x[1]).toBeCloseTo(1, 3);
  });

  it('respects the bounds when the unconstrained minimum lies outside them', () => {
    const result = nelderMead((x) => (x[0]! - 5) ** 2, [0.5], { lower: [0], upper: [1], tolerance: 1e-10 });
    expect(result.x[0]).toBeCloseTo(1, 6);
  });

  it('treats NaN evaluations as worst and is deterministic', () => {
    const objective = (x: readonly number[]): number => (x[0]! < 0.2 ? Number.NaN : (x[0]! - 0.4) ** 2);
    const a = nelderMead(objective, [0.9], { lower: [0], upper: [1], tolerance: 1e-10 });
    const b = nelderMead(objective, [0.9], { lower: [0], upper: [1], tolerance: 1e-10 });
    expect(a.x[0]).toBeCloseTo(0.4, 5);
    expect(a).toEqual(b);
  });
});
