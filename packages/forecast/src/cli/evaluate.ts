import { readFileSync, writeFileSync } from 'node:fs';
import type { ContinuousModel } from '../candidates';
import { formatTable, rollingOrigins, type HoldoutCase, type OriginSplit } from '../evaluation';
import { DEFAULT_TUNING, GLOBAL_MEMBER, type ForecastTuning, type SeriesForecast } from '../forecast-series';
import { reconciliationRuleLines, type SavedReconciliationScores } from '../hierarchy-evaluation';
import { parseM4Csv } from '../m4-csv';
import { forecastMany } from '../pool';
import { calibrateOffsets, normalOffsets, symmetricOffsets, type QuantileOffset } from '../quantiles';
import {
  calibrateOnCases,
  engineSpread,
  originOwa,
  recombine,
  scoreEngineBands,
  scoreOrigins,
  scaledErrors,
  scoreQuantiles,
  spreadWithExponent,
  type OriginCase,
  type QuantileScore,
  type SpreadOf,
  type Variant,
} from '../rolling-origin';
import { parseArgs, positiveNumber, progressReporter, tuningArg } from './args';

/**
 * npm run forecast:eval [-- --input FILE --horizon 13 --season-length 52.18 --origins 12 --step 13
 *   --design 8 --min-train 52 --tuning JSON --refit no-log,classical-season,window-season
 *   --save FILE --load FILE --drop CHOICE[,CHOICE…]]
 *
 * Rolling-origin evaluation of the training file: origin k of `origins` (oldest first) scores
 * the `horizon` weeks that end (origins − k)·step weeks before the file's end. Origins 1…design
 * are the design origins, the rest are reported. Prints, per member and for the ensemble, the
 * mean sMAPE, MASE and OWA (each origin against its own naïve) on both groups, the ensemble's OWA
 * per origin, the gain of each design choice on both groups (derived from the same forecasts by
 * dropping configurations, or with --refit by fitting the engine again without the choice), and
 * the quantile forecasts' pinball loss, MSIS and coverage with offsets calibrated on the design
 * origins only. --save keeps the forecasts, --load re-scores saved ones without fitting.
 * --drop takes design choices out (names as the choices table prints them, configurations only):
 * the engine is then rebuilt without them, and every other choice tested against that engine —
 * the rule's removals one at a time, without a refit. The quantile tables stay the engine's own.
 */
const REFITS: Record<
  string,
  { label: string; tuning: (current: ForecastTuning) => Partial<ForecastTuning> }
> = {
  'no-log': {
    label: 'members on the log scale (vs the same members on the raw scale)',
    tuning: (current) => ({
      members: current.members.map((m) => (m.endsWith('-log') ? (m.slice(0, -4) as ContinuousModel) : m)),
    }),
  },
  'classical-season': {
    label: '13 Fourier harmonics of 52.18 weeks (vs classical indices on 52)',
    tuning: () => ({ seasonalHarmonics: 0 }),
  },
  'window-season': {
    label: 'seasonal component from 5 years (vs from the fitted window)',
    tuning: () => ({ seasonalCycles: 0 }),
  },
};

/** The recent-volatility exponent the engine had before the rolling-origin rule; compared when the engine has none. */
const ALTERNATIVE_EXPONENT = 0.3;

type SavedRun = {
  tuning: Partial<ForecastTuning>;
  origins: { origin: number; forecasts: SeriesForecast[] }[];
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), [
    'input',
    'horizon',
    'season-length',
    'origins',
    'step',
    'design',
    'min-train',
    'concurrency',
    'tuning',
    'refit',
    'save',
    'load',
    'drop',
    'reconciliation',
  ]);
  // The reconciliation rule's table from `forecast:reconcile-eval --save` files (comma-separated):
  // the choice of the runs' method, with its gains on the design and reported origins.
  const reconciliationFiles = (args.get('reconciliation') ?? '').split(',').filter(Boolean);
  if (reconciliationFiles.length > 0) {
    const sets = reconciliationFiles.map(
      (file) => JSON.parse(readFileSync(file, 'utf8')) as SavedReconciliationScores,
    );
    console.log('reconciliation across the hierarchy (forecast:reconcile-eval):');
    for (const line of reconciliationRuleLines(sets, false)) console.log(line);
  }
  const input = args.get('input') ?? '../shared/data/m4-weekly-train.csv';
  const horizon = Math.round(positiveNumber(args, 'horizon', 13));
  // Weeks in a year (365.25 / 7): the Fourier seasonal component keeps its phase across years.
  const seasonLength = positiveNumber(args, 'season-length', 52.18);
  const originCount = Math.round(positiveNumber(args, 'origins', 12));
  const step = Math.round(positiveNumber(args, 'step', horizon));
  const designCount = Math.round(positiveNumber(args, 'design', 8));
  if (designCount >= originCount) throw new Error('--design must leave at least one reported origin');
  const minTrain = Math.round(positiveNumber(args, 'min-train', 52));
  const concurrency = args.has('concurrency') ? Math.round(positiveNumber(args, 'concurrency')) : undefined;
  const tuning = tuningArg(args);
  const refits = (args.get('refit') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of refits)
    if (!REFITS[name]) throw new Error(`--refit takes ${Object.keys(REFITS).join(', ')}; got "${name}"`);

  const data = parseM4Csv(readFileSync(input, 'utf8'));
  const splits = data.map((s) => rollingOrigins(s.values, { horizon, origins: originCount, step, minTrain }));
  const origins = Array.from({ length: originCount }, (_, i) => i + 1);
  const design = origins.slice(0, designCount);
  const reported = origins.slice(designCount);
  const splitsAt = (origin: number): OriginSplit[] =>
    splits.map((s) => s[origin - 1]).filter((s): s is OriginSplit => s !== null);

  const fit = async (
    label: string,
    variantTuning: Partial<ForecastTuning>,
  ): Promise<Map<number, OriginCase[]>> => {
    const started = performance.now();
    const all = origins.flatMap((origin) => splitsAt(origin));
    const options = { horizon, seasonLength, concurrency, tuning: variantTuning };
    const hasGlobal = { ...DEFAULT_TUNING, ...variantTuning }.globalMember !== null;
    // The global member learns from every series it is given: each origin is its own run, so no
    // origin's model sees weeks that another origin scores.
    const forecasts: SeriesForecast[] = [];
    if (hasGlobal) {
      const progress = progressReporter(label);
      for (const origin of origins) {
        const at = splitsAt(origin);
        forecasts.push(
          ...(await forecastMany(
            at.map((s) => s.train),
            options,
          )),
        );
        progress(forecasts.length, all.length);
      }
    } else
      forecasts.push(
        ...(await forecastMany(
          all.map((s) => s.train),
          { ...options, onProgress: progressReporter(label) },
        )),
      );
    const seconds = (performance.now() - started) / 1000;
    console.log(`${label}: ${all.length} forecasts (${originCount} origins) in ${seconds.toFixed(1)} s`);
    return group(all, forecasts);
  };
  const group = (all: OriginSplit[], forecasts: readonly SeriesForecast[]): Map<number, OriginCase[]> => {
    const byOrigin = new Map<number, OriginCase[]>();
    all.forEach((s, i) => {
      const list = byOrigin.get(s.origin) ?? [];
      list.push({ ...s, forecast: forecasts[i]! });
      byOrigin.set(s.origin, list);
    });
    return byOrigin;
  };

  let base: Map<number, OriginCase[]>;
  const loadPath = args.get('load');
  if (loadPath) {
    const saved = JSON.parse(readFileSync(loadPath, 'utf8')) as SavedRun;
    const all = saved.origins.flatMap((o) => splitsAt(o.origin));
    base = group(
      all,
      saved.origins.flatMap((o) => o.forecasts),
    );
    console.log(`loaded ${all.length} forecasts from ${loadPath}`);
  } else base = await fit('engine', tuning);
  const savePath = args.get('save');
  if (savePath) {
    const saved: SavedRun = {
      tuning,
      origins: origins.map((origin) => ({
        origin,
        forecasts: (base.get(origin) ?? []).map((c) => c.forecast),
      })),
    };
    writeFileSync(savePath, JSON.stringify(saved));
  }

  const effective = { ...DEFAULT_TUNING, ...tuning };
  const fixedWindows = effective.windows;
  console.log(
    `\n== Rolling origins: ${originCount} origins ${step} weeks apart, horizon ${horizon}; ` +
      `design origins ${design[0]}–${design.at(-1)}, reported ${reported[0]}–${reported.at(-1)} ` +
      `(the newest; origin ${originCount} scores the file's last ${horizon} weeks)`,
  );
  console.log(
    `series scored per origin (at least ${minTrain} training weeks): ` +
      origins.map((o) => `${o}: ${base.get(o)?.length ?? 0}`).join(', '),
  );

  // Per member (its own configurations, weighted as in the engine) and the ensemble.
  const hasGlobal = effective.globalMember !== null;
  const members: string[] = [...effective.members, ...(hasGlobal ? [GLOBAL_MEMBER] : [])];
  const choices = designChoices(members, fixedWindows);
  const dropNames = (args.get('drop') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const dropped = dropNames.map((name) => {
    const choice = choices.find((v) => v.name === name);
    if (!choice?.keep)
      throw new Error(
        `--drop takes configuration choices: ${choices
          .filter((v) => v.keep)
          .map((v) => `"${v.name}"`)
          .join(', ')}; got "${name}"`,
      );
    return choice;
  });
  // A dropped member has no configuration left to show on its own.
  const shownMembers = members.filter((model) => !dropNames.includes(`member ${model}`));
  /** The engine's configurations, less those of the dropped choices. */
  const isKept: NonNullable<Variant['keep']> = (m, windows) => dropped.every((d) => d.keep!(m, windows));
  const holdout = (cases: readonly OriginCase[], extra: Variant[] = []): HoldoutCase[] =>
    cases.map((c) => {
      const nonNegative = c.train.every((v) => v >= 0);
      const methods = new Map<string, number[]>([['naive', c.forecast.naive]]);
      const rebuild = (variant: Variant): number[] =>
        recombine(
          c.forecast,
          nonNegative,
          {
            ...variant,
            keep: (m, windows) => isKept(m, windows) && (variant.keep?.(m, windows) ?? true),
          },
          fixedWindows,
        );
      for (const model of members)
        methods.set(model, rebuild({ name: model, keep: (m) => m.model === model }));
      methods.set('ensemble', dropped.length === 0 ? c.forecast.ensemble : rebuild({ name: 'ensemble' }));
      for (const variant of extra) methods.set(variant.name, rebuild(variant));
      return { train: c.train, actual: c.actual, forecasts: methods };
    });

  // The variants below rebuild the ensemble from its configurations; the engine's own must come back.
  let deviation = 0;
  for (const c of [...base.values()].flat()) {
    const again = recombine(
      c.forecast,
      c.train.every((v) => v >= 0),
      { name: 'engine' },
      fixedWindows,
    );
    again.forEach((v, j) => {
      const f = c.forecast.ensemble[j]!;
      deviation = Math.max(deviation, Math.abs(v - f) / Math.max(1, Math.abs(f)));
    });
  }
  console.log(
    `ensemble rebuilt from its configurations: largest relative difference ${deviation.toExponential(1)}`,
  );

  if (dropped.length > 0) console.log(`engine without: ${dropNames.join('; ')}`);
  const variants = choices.filter((v) => !dropped.includes(v));
  const byOrigin = new Map([...base.entries()].map(([o, cases]) => [o, holdout(cases, variants)]));
  const designScores = scoreOrigins(byOrigin, design);
  const reportedScores = scoreOrigins(byOrigin, reported);
  const row = (method: string, label = method): string[] => {
    const d = designScores.find((s) => s.method === method)!;
    const r = reportedScores.find((s) => s.method === method)!;
    return [label, ...[d, r].flatMap((s) => [s.smape.toFixed(3), s.mase.toFixed(3), s.owa.toFixed(3)])];
  };
  console.log(
    "\nmean over origins (each origin's OWA against its own naïve); a member = its own windows, weighted\n",
  );
  console.log(
    formatTable(
      ['method', 'design sMAPE', 'MASE', 'OWA', 'reported sMAPE', 'MASE', 'OWA'],
      [row('naive'), ...shownMembers.map((m) => row(m)), row('ensemble')],
    ),
  );
  console.log('\nensemble OWA per origin:');
  console.log(
    formatTable(
      ['origin', ...origins.map(String)],
      [['OWA', ...origins.map((o) => originOwa(byOrigin.get(o) ?? [], 'ensemble').toFixed(3))]],
    ),
  );

  // Design choices: the engine with each choice against the engine without it.
  const gains: string[][] = [];
  const gainRow = (
    label: string,
    withD: number,
    withoutD: number,
    withR: number,
    withoutR: number,
    neighbour = false,
  ): string[] => {
    const gainD = withoutD - withD;
    const gainR = withoutR - withR;
    // A constant moves to a neighbour only if the neighbour gains on both; a choice stays only if it does.
    const verdict = neighbour
      ? gainD < 0 && gainR < 0
        ? 'switch'
        : 'stay'
      : gainD > 0 && gainR > 0
        ? 'keep'
        : 'drop';
    return [
      label,
      withD.toFixed(4),
      withoutD.toFixed(4),
      signed(gainD),
      withR.toFixed(4),
      withoutR.toFixed(4),
      signed(gainR),
      verdict,
    ];
  };
  const ensembleD = designScores.find((s) => s.method === 'ensemble')!.owa;
  const ensembleR = reportedScores.find((s) => s.method === 'ensemble')!.owa;
  for (const variant of variants) {
    const d = designScores.find((s) => s.method === variant.name)!.owa;
    const r = reportedScores.find((s) => s.method === variant.name)!.owa;
    gains.push(gainRow(variant.name, ensembleD, d, ensembleR, r, variant.neighbour));
  }
  for (const name of refits) {
    const refit = REFITS[name]!;
    const other = await fit(`without: ${refit.label}`, { ...tuning, ...refit.tuning(effective) });
    const otherByOrigin = new Map([...other.entries()].map(([o, cases]) => [o, holdout(cases)]));
    gains.push(
      gainRow(
        refit.label,
        ensembleD,
        scoreOrigins(otherByOrigin, design).find((s) => s.method === 'ensemble')!.owa,
        ensembleR,
        scoreOrigins(otherByOrigin, reported).find((s) => s.method === 'ensemble')!.owa,
      ),
    );
  }
  console.log(
    '\ndesign choices: ensemble OWA with the choice and without it (gain = without − with). A choice is kept if it gains on both;\n' +
      'a constant (rows "vs" a neighbouring value) switches only if the neighbour gains on both.\n',
  );
  console.log(
    formatTable(
      [
        'choice (vs the engine without it)',
        'design with',
        'without',
        'gain',
        'reported with',
        'without',
        'gain',
        'rule',
      ],
      gains,
    ),
  );

  // Quantiles: offsets calibrated on the design origins, scored on the reported ones.
  const designCases = design.flatMap((o) => base.get(o) ?? []);
  const reportedCases = reported.flatMap((o) => base.get(o) ?? []);
  const calibrated = calibrateOnCases(designCases);
  console.log(
    "\nquantile offsets c_τ (q = f + c·spread) calibrated on the design origins, and the engine's:",
  );
  console.log(
    formatTable(
      ['level', ...calibrated.map((o) => o.level.toString())],
      [
        ['design', ...calibrated.map((o) => o.offset.toFixed(3))],
        ['engine', ...effective.quantileOffsets.map((o) => o.offset.toFixed(3))],
        ['normal', ...normalOffsets(calibrated.map((o) => o.level)).map((o) => o.offset.toFixed(3))],
      ],
    ),
  );
  const quantileMethod = (
    label: string,
    offsets: readonly QuantileOffset[],
    spreadOf: SpreadOf = engineSpread,
  ) => ({
    label,
    design: scoreQuantiles(designCases, offsets, spreadOf),
    reported: scoreQuantiles(reportedCases, offsets, spreadOf),
  });
  // Offsets recalibrated on the design origins for each shape (asymmetric quantiles of the scaled
  // errors, or ±quantiles of their size) and each recent-volatility exponent (the engine's and the
  // other one), so the engine's own choice is compared with its alternatives on both groups.
  const { recentPeriods, exponent } = effective.intervalSpread;
  const methods: { label: string; design: QuantileScore; reported: QuantileScore }[] = [
    quantileMethod('engine offsets', effective.quantileOffsets),
    quantileMethod(
      'normal quantiles of the spread (uncalibrated)',
      normalOffsets(calibrated.map((o) => o.level)),
    ),
  ];
  for (const power of [exponent, exponent > 0 ? 0 : ALTERNATIVE_EXPONENT]) {
    const spreadOf =
      power === exponent ? engineSpread : spreadWithExponent({ recentPeriods, exponent: power });
    const errors = scaledErrors(designCases, spreadOf);
    const suffix = `spread × volatility ratio^${power}${power === exponent ? ' (engine)' : ''}`;
    methods.push(quantileMethod(`asymmetric, ${suffix}`, calibrateOffsets(errors), spreadOf));
    methods.push(quantileMethod(`symmetric, ${suffix}`, symmetricOffsets(errors), spreadOf));
  }
  const bands = { design: scoreEngineBands(designCases), reported: scoreEngineBands(reportedCases) };
  console.log(
    `\nintervals and quantiles (pinball over MASE's scale; mean over the ${calibrated.length} levels)\n`,
  );
  const qRows = [
    [
      `engine bands (${effective.intervals})`,
      ...[bands.design, bands.reported].flatMap((b) => [
        b.coverage80.toFixed(1),
        b.msis80.toFixed(3),
        b.coverage95.toFixed(1),
        b.msis95.toFixed(3),
        '',
        '',
        '',
        '',
      ]),
    ],
    ...methods.map((m) => [
      m.label,
      ...[m.design, m.reported].flatMap((s) => [
        s.coverage80.toFixed(1),
        s.msis80.toFixed(3),
        s.coverage95.toFixed(1),
        s.msis95.toFixed(3),
        pinballAt(s, 0.1),
        pinballAt(s, 0.5),
        pinballAt(s, 0.9),
        s.meanPinball.toFixed(4),
      ]),
    ]),
  ];
  console.log(
    formatTable(
      [
        'method',
        'design cov80',
        'MSIS80',
        'cov95',
        'MSIS95',
        'PL10',
        'PL50',
        'PL90',
        'PL mean',
        'reported cov80',
        'MSIS80',
        'cov95',
        'MSIS95',
        'PL10',
        'PL50',
        'PL90',
        'PL mean',
      ],
      qRows,
    ),
  );
  console.log('\nshare of actuals at or below each quantile (percent; nominal = the level):');
  console.log(
    formatTable(
      ['method', ...calibrated.map((o) => o.level.toString())],
      methods.flatMap((m) => [
        [`${m.label}, design`, ...m.design.below.map((b) => b.share.toFixed(1))],
        [`${m.label}, reported`, ...m.reported.below.map((b) => b.share.toFixed(1))],
      ]),
    ),
  );

  const weights = new Map<string, number>();
  const all = [...base.values()].flat();
  for (const c of all)
    for (const m of c.forecast.members) {
      const window =
        m.window === null
          ? 'all'
          : fixedWindows.includes(m.window)
            ? `last ${m.window}`
            : 'since a level shift';
      const key = m.model === GLOBAL_MEMBER ? `${m.model} (learned, all series)` : `${m.model} on ${window}`;
      weights.set(key, (weights.get(key) ?? 0) + m.weight / all.length);
    }
  if (hasGlobal) {
    const share = (group: readonly number[]): string => {
      const cases = group.flatMap((o) => base.get(o) ?? []);
      const total = cases.reduce(
        (t, c) => t + (c.forecast.members.find((m) => m.model === GLOBAL_MEMBER)?.weight ?? 0),
        0,
      );
      const joined = cases.filter((c) => c.forecast.members.some((m) => m.model === GLOBAL_MEMBER)).length;
      return `${(total / Math.max(1, cases.length)).toFixed(3)} (in ${joined} of ${cases.length} forecasts)`;
    };
    console.log(`\nlearned member's mean weight share: design ${share(design)}, reported ${share(reported)}`);
  }
  console.log('\nmean weight per configuration, all origins:');
  for (const [key, weight] of [...weights.entries()].filter((e) => e[1] > 0).sort((a, b) => b[1] - a[1]))
    console.log(`  ${weight.toFixed(3)}  ${key}`);
}

/** The engine's choices that its own forecasts can undo: windows, members and the weighting. */
function designChoices(members: readonly string[], fixedWindows: readonly number[]): Variant[] {
  const isShift = (m: { window: number | null }): boolean =>
    m.window !== null && !fixedWindows.includes(m.window);
  // The global member has no window (it is stored as null); the window variants keep it.
  const isGlobal = (m: { model: string }): boolean => m.model === GLOBAL_MEMBER;
  const variants: Variant[] = [
    { name: 'window since a level shift', keep: (m) => isGlobal(m) || !isShift(m) },
  ];
  for (const w of fixedWindows.filter(Number.isFinite))
    variants.push({ name: `window of the last ${w} weeks`, keep: (m) => m.window !== w });
  variants.push({ name: 'whole-history window', keep: (m) => isGlobal(m) || m.window !== null });
  for (const model of members) variants.push({ name: `member ${model}`, keep: (m) => m.model !== model });
  variants.push({ name: 'softmax weights (vs equal weights)', temperature: Infinity });
  variants.push({ name: 'temperature s_min (vs 2·s_min)', temperature: 2, neighbour: true });
  variants.push({ name: 'temperature s_min (vs 0.5·s_min)', temperature: 0.5, neighbour: true });
  return variants;
}

function pinballAt(score: QuantileScore, level: number): string {
  return score.pinball.find((p) => Math.abs(p.level - level) < 1e-9)?.loss.toFixed(4) ?? '';
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`evaluate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
