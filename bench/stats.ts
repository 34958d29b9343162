/** Percentile of already-collected timings (nearest-rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

export async function timeRuns(runs: number, task: () => Promise<unknown>): Promise<number[]> {
  const timings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await task();
    timings.push(performance.now() - started);
  }
  return timings;
}

export type BenchRow = Record<string, string | number>;

export function printTable(title: string, rows: readonly BenchRow[]): void {
  console.log(`\n## ${title}\n`);
  if (rows.length === 0) return;
  // Every column any row has, in the order they first appear (a first row may hold fewer).
  const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${headers.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${headers.map((h) => String(row[h] ?? '')).join(' | ')} |`);
}

export const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** A timed case against its p95 budget in milliseconds. */
export function budgetRow(name: string, timings: number[], budget: number): BenchRow {
  const p95 = percentile(timings, 95);
  return {
    case: name,
    runs: timings.length,
    p50: ms(percentile(timings, 50)),
    p95: ms(p95),
    budget: `< ${budget} ms`,
    verdict: p95 < budget ? 'ok' : 'OVER',
  };
}
