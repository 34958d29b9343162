import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { forecastMany, parseM4Csv } from '@ps/forecast';
import { percentile, printTable, type BenchRow } from './stats';

/**
 * Targets on 2 cores: 359 M4 weekly series < 20 s including the learned member's training,
 * 20,000 × 156 weeks < 60 s.
 */
const M4_WEEKLY = resolve(import.meta.dirname, '../../shared/data/m4-weekly-train.csv');
const SYNTHETIC_SERIES = 20_000;
const SYNTHETIC_WEEKS = 156;
const HORIZON = 13;
const SEASON_LENGTH = 52.18;
/** Timed runs per case (FORECAST_BENCH_RUNS), for p50 and p95. */
const RUNS = Number(process.env.FORECAST_BENCH_RUNS ?? 3);

/** Deterministic generator (mulberry32) so every run forecasts the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Weekly demand that looks like a planner's: a level from 5 to 5,000 units, a drift, yearly
 * seasonality of varying strength, a level shift in some series, multiplicative noise, and
 * about one series in ten intermittent.
 */
export function syntheticWeeklySeries(count: number, weeks: number, seed = 1): number[][] {
  const next = random(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  return Array.from({ length: count }, () => {
    const level = 5 * Math.pow(1000, next());
    const drift = (next() - 0.5) * 0.004;
    const amplitude = next() < 0.6 ? next() * 0.4 : 0;
    const phase = next() * 2 * Math.PI;
    const noise = 0.05 + next() * 0.25;
    const shiftAt = next() < 0.2 ? Math.floor(next() * weeks) : -1;
    const shift = 1 + (next() - 0.5) * 0.6;
    const isIntermittent = next() < 0.1;
    return Array.from({ length: weeks }, (_, t) => {
      const season = 1 + amplitude * Math.sin((2 * Math.PI * t) / 52.18 + phase);
      const base = level * Math.exp(drift * t) * season * (shiftAt >= 0 && t >= shiftAt ? shift : 1);
      const value = Math.max(0, base * (1 + noise * normal()));
      if (isIntermittent) return next() < 0.3 ? Math.round(value) : 0;
      return Math.round(value * 100) / 100;
    });
  });
}

/**
 * Wall time, and CPU time of this process (workers included): on a shared machine the CPU time
 * divided by the cores tells what the wall time would be without the other load.
 */
async function timeForecast(series: number[][]): Promise<{ walls: number[]; cpu: number }> {
  const walls: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await forecastMany(series, { horizon: HORIZON, seasonLength: SEASON_LENGTH });
    walls.push((performance.now() - started) / 1000);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { walls, cpu: (cpu.user + cpu.system) / 1e6 / RUNS };
}

export async function runForecastBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cores = availableParallelism();
  const row = (
    name: string,
    series: number,
    time: { walls: number[]; cpu: number },
    budget: number,
  ): BenchRow => {
    const p50 = percentile(time.walls, 50);
    const p95 = percentile(time.walls, 95);
    return {
      case: name,
      series,
      cores,
      runs: time.walls.length,
      'wall p50 s': p50.toFixed(1),
      'wall p95 s': p95.toFixed(1),
      'CPU s per run': time.cpu.toFixed(1),
      'series/s': Math.round(series / p50),
      budget: `< ${budget} s`,
      result: p95 < budget ? 'ok' : 'OVER',
    };
  };
  if (existsSync(M4_WEEKLY)) {
    const m4 = parseM4Csv(readFileSync(M4_WEEKLY, 'utf8')).map((s) => s.values);
    rows.push(row('M4 weekly (80–2,597 weeks)', m4.length, await timeForecast(m4), 20));
  }
  const synthetic = syntheticWeeklySeries(SYNTHETIC_SERIES, SYNTHETIC_WEEKS);
  rows.push(
    row(`synthetic weekly, ${SYNTHETIC_WEEKS} weeks`, synthetic.length, await timeForecast(synthetic), 60),
  );
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable('Forecast engine: ensemble forecasts on all cores (horizon 13)', await runForecastBench());
}
