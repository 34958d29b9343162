import {
  aggregatePeriods,
  buildModel,
  diagnoseInstance,
  enumerateVariables,
  failedResult,
  fixDecisions,
  INFEASIBLE_MESSAGE,
  interpretSolution,
  mergeValues,
  splitByPeriod,
  UNBOUNDED_MESSAGE,
  type BuiltModel,
  type ModelSize,
  type ModelVariables,
  type NetworkInstance,
  type SolveResult,
  type SolveStatus,
} from '@ps/domain';
import loadHighs, { type Highs } from 'highs';

/** When to stop: a wall-clock limit and a relative MIP gap that is good enough. */
export type SolveLimits = {
  timeLimitSeconds: number;
  mipGapPercent: number;
  /** Tests: decompose smaller models too (default DECOMPOSE_ABOVE_COLUMNS). */
  decomposeAboveColumns?: number;
};

/** What the solver reports while it works (MIP logging callbacks, a few per second at most). */
export type SolveProgress = { seconds: number; gapPercent: number | null; objective: number | null };

/**
 * Above this many columns (with more than one period) the model is solved by decomposition
 * (solveByDecomposition): on these machines HiGHS needs over a minute for the LP relaxation of a
 * 160,000-column model alone, while its period-aggregated MIP and one LP per period take seconds.
 */
export const DECOMPOSE_ABOVE_COLUMNS = 60_000;
/** Share of the time limit the aggregated MIP may use; the per-period LPs get the rest. */
const AGGREGATE_TIME_SHARE = 0.5;

let highsInstance: Promise<Highs> | undefined;
/** One WebAssembly instance per thread: compiling the module costs more than most solves. */
const highs = (): Promise<Highs> => (highsInstance ??= loadHighs());

/** HiGHS primal_solution_status: 2 = a feasible primal solution is available. */
const FEASIBLE_SOLUTION = 2;

type RunOutcome = {
  status: SolveStatus | 'no-solution';
  code: number;
  objective: number;
  /** Best proven bound on the objective (the objective itself for an LP solved to optimality). */
  bound: number;
  gapPercent: number;
  values: Map<string, number>;
  size: ModelSize;
};

/** Solves one LP-format model with HiGHS and reads the non-zero columns by name. */
function runModel(
  solver: Highs,
  built: BuiltModel,
  options: { timeLimitSeconds: number; mipGapPercent: number },
  onLog: (data: { gap: number | undefined; primal: number | undefined }) => void,
): RunOutcome {
  const model = solver.createModel({ format: 'lp', data: built.lp });
  try {
    model.options.set({
      output_flag: false,
      time_limit: Math.max(1, options.timeLimitSeconds),
      mip_rel_gap: options.mipGapPercent / 100,
    });
    const dimensions = model.getDimensions();
    const size = { rows: dimensions.numRows, columns: dimensions.numCols, integers: built.size.integers };
    model.run({
      [solver.constants.callbackType.mipLogging](event) {
        onLog({ gap: event.data.mip_gap, primal: event.data.mip_primal_bound });
        return undefined;
      },
    });
    const codes = solver.constants.modelStatus;
    const code = model.getModelStatus();
    const hasSolution = Number(model.info.get('primal_solution_status')) === FEASIBLE_SOLUTION;
    let status: RunOutcome['status'];
    if (code === codes.optimal) status = 'optimal';
    else if (code === codes.infeasible) status = 'infeasible';
    else if (code === codes.unbounded || code === codes.unboundedOrInfeasible) status = 'unbounded';
    else if (code === codes.timeLimit) status = hasSolution ? 'time-limit' : 'no-solution';
    else status = 'error';
    const values = new Map<string, number>();
    if (status === 'optimal' || status === 'time-limit') {
      const columns = model.getSolution().colValue;
      for (let i = 0; i < columns.length; i += 1) {
        // Only shipments and open DCs matter to the figures; most columns are zero.
        if (Math.abs(columns[i]!) > 1e-9) values.set(model.getColName(i), columns[i]!);
      }
    }
    const objective = model.getObjectiveValue();
    const isMip = built.size.integers > 0;
    const gap = isMip ? Number(model.info.get('mip_gap')) : 0;
    const bound = isMip ? Number(model.info.get('mip_dual_bound')) : objective;
    return {
      status,
      code,
      objective,
      bound: Number.isFinite(bound) ? bound : Number.NEGATIVE_INFINITY,
      gapPercent: Number.isFinite(gap) ? gap * 100 : 100,
      values,
      size,
    };
  } finally {
    model.dispose();
  }
}

function failureMessage(status: RunOutcome['status'], code: number, limits: SolveLimits): string {
  switch (status) {
    case 'infeasible':
      return INFEASIBLE_MESSAGE;
    case 'unbounded':
      return UNBOUNDED_MESSAGE;
    case 'no-solution':
    case 'time-limit':
      return `The solver found no feasible plan within the ${limits.timeLimitSeconds} s time limit. Allow more time or a larger MIP gap.`;
    case 'optimal':
    case 'error':
      return `The solver stopped without a plan (HiGHS model status ${code}).`;
  }
}

const roundGap = (percent: number): number => Math.round(percent * 1e4) / 1e4;

/**
 * Diagnoses, builds and solves one instance with HiGHS and reads the figures from its flows.
 * Synchronous inside the solver: run it on a worker thread (solver-thread.ts) in the server.
 */
export async function solveInstance(
  instance: NetworkInstance,
  limits: SolveLimits,
  onProgress: (progress: SolveProgress) => void = () => undefined,
): Promise<SolveResult> {
  const started = performance.now();
  const seconds = (): number => Math.round(performance.now() - started) / 1000;
  const cause = diagnoseInstance(instance);
  if (cause) {
    return failedResult(instance, enumerateVariables(instance), {
      status: 'infeasible',
      message: cause,
      solveSeconds: seconds(),
      modelSize: { rows: 0, columns: 0, integers: 0 },
    });
  }
  const built = buildModel(instance);
  const solver = await highs();
  if (
    built.size.columns > (limits.decomposeAboveColumns ?? DECOMPOSE_ABOVE_COLUMNS) &&
    instance.periods.length > 1
  ) {
    return solveByDecomposition(solver, instance, built, limits, onProgress, seconds);
  }
  const run = runModel(solver, built, limits, ({ gap, primal }) =>
    onProgress({
      seconds: seconds(),
      gapPercent: gap !== undefined && Number.isFinite(gap) ? gap * 100 : null,
      objective: primal !== undefined && Number.isFinite(primal) ? primal : null,
    }),
  );
  if (run.status !== 'optimal' && run.status !== 'time-limit') {
    return failedResult(instance, built.variables, {
      status: run.status === 'no-solution' ? 'time-limit' : run.status,
      message: failureMessage(run.status, run.code, limits),
      solveSeconds: seconds(),
      modelSize: run.size,
    });
  }
  return interpretSolution(instance, built.variables, {
    status: run.status,
    objective: run.objective,
    mipGapPercent: roundGap(run.gapPercent),
    solveSeconds: seconds(),
    modelSize: run.size,
    values: run.values,
  });
}

/**
 * Large models (docs/optimisation.md "Large models"): solve the period-aggregated MIP (a lower
 * bound, and the DCs to open), then with those DCs fixed the full model falls apart into one LP
 * per period, solved exactly (an upper bound: a real plan). The gap reported is between the two.
 */
function solveByDecomposition(
  solver: Highs,
  instance: NetworkInstance,
  full: BuiltModel,
  limits: SolveLimits,
  onProgress: (progress: SolveProgress) => void,
  seconds: () => number,
): SolveResult {
  const modelSize = full.size;
  const fail = (status: RunOutcome['status'], code: number, variables: ModelVariables) =>
    failedResult(instance, variables, {
      status: status === 'no-solution' || status === 'optimal' ? 'time-limit' : status,
      message: failureMessage(status, code, limits),
      solveSeconds: seconds(),
      modelSize,
    });
  const aggregated = buildModel(aggregatePeriods(instance));
  const master = runModel(
    solver,
    aggregated,
    {
      timeLimitSeconds: limits.timeLimitSeconds * AGGREGATE_TIME_SHARE,
      mipGapPercent: limits.mipGapPercent / 2,
    },
    ({ gap }) =>
      onProgress({
        seconds: seconds(),
        gapPercent: gap !== undefined && Number.isFinite(gap) ? gap * 100 : null,
        objective: null,
      }),
  );
  if (master.status !== 'optimal' && master.status !== 'time-limit') {
    return fail(master.status, master.code, full.variables);
  }
  const open = new Set(
    aggregated.variables.open.filter((v) => (master.values.get(v.name) ?? 0) > 0.5).map((v) => v.dc.id),
  );
  const fixed = fixDecisions(instance, open);
  const parts: Array<{ variables: ModelVariables; values: Map<string, number> }> = [];
  let upperBound = 0;
  for (const period of splitByPeriod(fixed)) {
    const remaining = limits.timeLimitSeconds - seconds();
    const built = buildModel(period);
    if (built.size.columns === 0) continue;
    const run = runModel(solver, built, { timeLimitSeconds: remaining, mipGapPercent: 0 }, () => undefined);
    if (run.status !== 'optimal') return fail(run.status, run.code, full.variables);
    parts.push({ variables: built.variables, values: run.values });
    upperBound += run.objective;
    onProgress({ seconds: seconds(), gapPercent: null, objective: null });
  }
  const fixedVariables = enumerateVariables(fixed);
  const gapPercent = upperBound > 0 ? Math.max(0, ((upperBound - master.bound) / upperBound) * 100) : 0;
  const result = interpretSolution(fixed, fixedVariables, {
    status: gapPercent <= limits.mipGapPercent ? 'optimal' : 'time-limit',
    objective: upperBound,
    mipGapPercent: roundGap(gapPercent),
    solveSeconds: seconds(),
    modelSize,
    values: mergeValues(fixedVariables, parts),
  });
  // The DCs were fixed only to split the model: report each with the decision the planner set.
  const decisions = new Map(instance.dcs.map((dc) => [dc.id, dc.decision]));
  return {
    ...result,
    dcs: result.dcs.map((dc) => ({ ...dc, decision: decisions.get(dc.dcId) ?? dc.decision })),
  };
}
