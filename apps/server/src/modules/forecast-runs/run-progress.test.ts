import { describe, expect, it } from 'vitest';
import { runProgressPercent } from './forecast-run.service';

const run = { status: 'running' as const, total_products: 200, processed_products: 0 };

describe('a forecast run’s progress', () => {
  it('counts training the global member as the first half, then the products', () => {
    expect(runProgressPercent({ ...run, training_steps: 26, trained_steps: 0 })).toBe(0);
    expect(runProgressPercent({ ...run, training_steps: 26, trained_steps: 13 })).toBe(25);
    expect(runProgressPercent({ ...run, training_steps: 26, trained_steps: 26 })).toBe(50);
    expect(
      runProgressPercent({ ...run, training_steps: 26, trained_steps: 26, processed_products: 100 }),
    ).toBe(75);
    expect(
      runProgressPercent({ ...run, training_steps: 26, trained_steps: 26, processed_products: 200 }),
    ).toBe(100);
  });

  it('is the products alone when the run trains no member', () => {
    expect(runProgressPercent({ ...run, training_steps: 0, trained_steps: 0, processed_products: 50 })).toBe(
      25,
    );
    expect(runProgressPercent({ ...run, total_products: 0, training_steps: 0, trained_steps: 0 })).toBe(0);
    expect(
      runProgressPercent({
        ...run,
        status: 'succeeded',
        total_products: 0,
        training_steps: 0,
        trained_steps: 0,
      }),
    ).toBe(100);
  });
});
