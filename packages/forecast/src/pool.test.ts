import { describe, expect, it } from 'vitest';
import { forecastBatch, forecastMany } from './pool';

describe('forecastMany (worker threads)', () => {
  it('returns the same forecasts as in-process, in input order, and reports progress', async () => {
    const series = Array.from({ length: 10 }, (_, i) =>
      Array.from({ length: 60 + i }, (_, t) => 100 + i * t * 0.1 + Math.sin(t + i)),
    );
    const progress: number[] = [];
    const options = { horizon: 6, seasonLength: 52 };
    const pooled = await forecastMany(series, {
      ...options,
      concurrency: 2,
      chunkSize: 3,
      onProgress: (done) => progress.push(done),
    });
    expect(pooled).toEqual(forecastBatch(series, options));
    expect(progress.at(-1)).toBe(10);
    expect(await forecastMany([], options)).toEqual([]);
    // The next call reuses the idle threads (a run calls once per chunk) and answers the same.
    const again = await forecastMany(series.slice(0, 4), { ...options, concurrency: 2, chunkSize: 1 });
    expect(again).toEqual(pooled.slice(0, 4));
  }, 30_000);
});
