import { describe, expect, it } from 'vitest';
import { GLOBAL_MEMBER } from '../forecast-series';
import { smape } from '../metrics';
import { forecastBatch, forecastMany, trainGlobalMember } from '../pool';
import { mulberry32 } from './gbm';
import {
  DEFAULT_GLOBAL_MEMBER,
  globalInputs,
  globalMemberPaths,
  originsPerSeries,
  parseGlobalModels,
  serializeGlobalModels,
  trainGlobal,
  type GlobalMemberTuning,
} from './global-member';

/** A small, quick member for the tests: the defaults' features and windows, fewer trees. */
const tuning: GlobalMemberTuning = {
  ...DEFAULT_GLOBAL_MEMBER,
  params: { ...DEFAULT_GLOBAL_MEMBER.params, trees: 40, depth: 3 },
  minSeries: 10,
};

/**
 * Series with a 4-week cycle (+30%, −30%, +15%, −15% of the level) and a little noise: a pattern
 * the statistical members, which only know a yearly season, cannot follow, but which every series
 * shares on its own scale.
 */
function cycleSeries(count: number, length: number): number[][] {
  const random = mulberry32(11);
  const shape = [0.3, -0.3, 0.15, -0.15];
  return Array.from({ length: count }, (_, i) => {
    const level = 50 + 40 * i;
    const phase = i % 4;
    return Array.from({ length }, (_, t) => level * (1 + shape[(t + phase) % 4]! + 0.02 * (random() - 0.5)));
  });
}

describe('the learned global member', () => {
  it('never trains on a series’ last horizon values (the inner hold-out)', () => {
    const series = cycleSeries(12, 120);
    const changed = series.map((values) => values.map((v, t) => (t >= 120 - 6 ? v * 3 : v)));
    const a = trainGlobal(series, 6, tuning);
    const b = trainGlobal(changed, 6, tuning);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // Its inner-hold-out path reads nothing after the inner origin either.
    const pathA = globalMemberPaths(series[0]!, a)!;
    const pathB = globalMemberPaths(changed[0]!, a)!;
    expect(pathB.inner).toEqual(pathA.inner);
    expect(pathB.forecast).not.toEqual(pathA.forecast);
  });

  it('learns a pattern the statistical members miss, and earns the weight in the ensemble', () => {
    const horizon = 8;
    const full = cycleSeries(40, 140);
    const train = full.map((values) => values.slice(0, -horizon));
    const actual = full.map((values) => values.slice(-horizon));
    const options = { horizon, seasonLength: 52.18 };
    const without = forecastBatch(train, { ...options, tuning: { globalMember: null } });
    const withMember = forecastBatch(train, { ...options, tuning: { globalMember: tuning } });
    const meanSmape = (forecasts: { ensemble: number[] }[]): number =>
      forecasts.reduce((t, f, i) => t + smape(actual[i]!, f.ensemble), 0) / forecasts.length;
    // The statistical ensemble misses the ±30% cycle (sMAPE well above 10%); the member follows it.
    expect(meanSmape(without)).toBeGreaterThan(10);
    expect(meanSmape(withMember)).toBeLessThan(meanSmape(without) / 2);
    const weights = withMember.map((f) => f.members.find((m) => m.model === GLOBAL_MEMBER)?.weight ?? 0);
    expect(Math.min(...weights)).toBeGreaterThan(0.5);
  });

  it('gives the same forecasts bit for bit on worker threads as in this thread', async () => {
    const series = cycleSeries(12, 100);
    const options = { horizon: 6, seasonLength: 52.18, tuning: { globalMember: tuning } };
    const pooled = await forecastMany(series, { ...options, concurrency: 2, chunkSize: 5 });
    const inThread = forecastBatch(series, options);
    expect(pooled).toEqual(inThread);
    expect(pooled[0]!.members.some((m) => m.model === GLOBAL_MEMBER)).toBe(true);
  }, 60_000);

  it('trained once for a set, forecasts its chunks as if they were forecast together', async () => {
    const series = cycleSeries(12, 100);
    const options = { horizon: 6, seasonLength: 52.18, tuning: { globalMember: tuning } };
    const steps: number[] = [];
    const models = await trainGlobalMember(series, {
      ...options,
      concurrency: 2,
      onProgress: (done) => steps.push(done),
    });
    expect(steps).toEqual([1, 2, 3, 4, 5, 6]);
    // Stored as JSON and read back, as a forecast run hands it to its chunks.
    const stored = parseGlobalModels(JSON.parse(JSON.stringify(serializeGlobalModels(models!))));
    const chunked = [
      ...(await forecastMany(series.slice(0, 5), { ...options, globalModels: stored, concurrency: 2 })),
      ...(await forecastMany(series.slice(5), { ...options, globalModels: stored, concurrency: 2 })),
    ];
    expect(chunked).toEqual(forecastBatch(series, options));
    await expect(forecastMany(series, { ...options, horizon: 5, globalModels: stored })).rejects.toThrow(
      /6 step models for a horizon of 5/,
    );
  }, 60_000);

  it('writes models to JSON and reads them back exactly, refusing a malformed one', () => {
    const models = trainGlobal(cycleSeries(12, 100), 3, tuning);
    // A split at the lowest edge (only missing values go left) has the threshold −∞.
    models[0]!.trees[0]!.threshold[0] = -Infinity;
    const text = JSON.stringify(serializeGlobalModels(models));
    expect(parseGlobalModels(JSON.parse(text))).toEqual(models);
    const broken = JSON.parse(text) as { models: { features: number; trees: { left: number[] }[] }[] };
    expect(() => parseGlobalModels({ models: [] })).toThrow(/no models/);
    expect(() => parseGlobalModels({ models: [{ ...broken.models[0]!, features: 3 }] })).toThrow(/features/);
    broken.models[1]!.trees[0]!.left[0] = 0;
    expect(() => parseGlobalModels(broken)).toThrow(/child index/);
  });

  it('keeps the training rows within the budget', () => {
    // 16,000 rows: 359 series keep their 40 origins (⌊16000/359⌋ = 44), 1,000 series get 16,
    // 20,000 series one each — and then only every second series is used (⌈20000/16000⌉ = 2).
    expect(originsPerSeries(359, DEFAULT_GLOBAL_MEMBER)).toBe(40);
    expect(originsPerSeries(1000, DEFAULT_GLOBAL_MEMBER)).toBe(16);
    expect(originsPerSeries(20_000, DEFAULT_GLOBAL_MEMBER)).toBe(1);
    const many = Array.from({ length: 20_000 }, (_, i) => [i + 1]);
    const inputs = globalInputs(many, 13, DEFAULT_GLOBAL_MEMBER);
    expect(inputs.length).toBe(10_000);
    expect(inputs[1]).toEqual([3]);
    // Each kept series is cut to what the windows can read: 40·2 + 2·13 + 104 + 13 + 1 = 224 values.
    expect(
      globalInputs([Array.from({ length: 1000 }, (_, t) => t)], 13, DEFAULT_GLOBAL_MEMBER)[0]!.length,
    ).toBe(224);
  });

  it('stays out when there are too few series to learn from', () => {
    const series = cycleSeries(5, 100);
    const forecasts = forecastBatch(series, {
      horizon: 6,
      seasonLength: 52,
      tuning: { globalMember: tuning },
    });
    expect(forecasts.every((f) => f.members.every((m) => m.model !== GLOBAL_MEMBER))).toBe(true);
  });
});
