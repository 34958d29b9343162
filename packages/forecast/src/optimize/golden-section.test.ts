import { describe, expect, it } from 'vitest';
import { goldenSection } from './golden-section';

describe('goldenSection', () => {
  it('finds the minimum of a parabola inside the interval', () => {
    expect(goldenSection((x) => (x - 0.37) ** 2, 0, 1, 1e-8).x).toBeCloseTo(0.37, 6);
  });
  it('ends at the bound when the function decreases throughout', () => {
    expect(goldenSection((x) => -x, 0, 1, 1e-8).x).toBeCloseTo(1, 6);
  });
});
