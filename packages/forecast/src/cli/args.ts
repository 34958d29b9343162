import type { ForecastTuning } from '../forecast-series';

/** Minimal `--name value` parser for the command-line tools; unknown flags are an error. */
export function parseArgs(argv: readonly string[], known: readonly string[]): Map<string, string> {
  const result = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (!known.includes(name))
      throw new Error(`Unknown option --${name}; expected one of ${known.map((k) => `--${k}`).join(', ')}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`Option --${name} needs a value`);
    result.set(name, value);
  }
  return result;
}

export function positiveNumber(args: Map<string, string>, name: string, fallback?: number): number {
  const text = args.get(name);
  if (text === undefined) {
    if (fallback === undefined) throw new Error(`Missing --${name}`);
    return fallback;
  }
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, got "${text}"`);
  return value;
}

/**
 * `--tuning`: a JSON object of DEFAULT_TUNING fields to override; the word "all" stands for an
 * unbounded window (JSON has no Infinity).
 */
export function tuningArg(args: Map<string, string>): Partial<ForecastTuning> {
  return JSON.parse(args.get('tuning') ?? '{}', (_key, value: unknown) =>
    value === 'all' ? Infinity : value,
  ) as Partial<ForecastTuning>;
}

/** A progress line on stderr, rewritten in place on a terminal and one line per 10% otherwise. */
export function progressReporter(label: string): (done: number, total: number) => void {
  let lastDecile = -1;
  return (done, total) => {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${label}: ${done}/${total}${done === total ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor((10 * done) / total);
    if (decile !== lastDecile) {
      lastDecile = decile;
      process.stderr.write(`${label}: ${done}/${total}\n`);
    }
  };
}
