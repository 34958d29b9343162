import {
  buildModel,
  diagnoseInstance,
  enumerateVariables,
  failedResult,
  INFEASIBLE_MESSAGE,
  interpretSolution,
  UNBOUNDED_MESSAGE,
  type NetworkInstance,
  type SolveResult,
  type SolveStatus,
} from '@ps/domain';
import loadHighs, { type Highs } from 'highs';

/** When to stop: a wall-clock limit and a relative MIP gap that is good enough. */
export type SolveLimits = { timeLimitSeconds: number; mipGapPercent: number };

/** What the solver reports while it works (MIP logging callbacks, a few per second at most). */
export type SolveProgress = { seconds: number; gapPercent: number | null; objective: number | null };

let highsInstance: Promise<Highs> | undefined;
/** One WebAssembly instance per thread: compiling the module costs more than most solves. */
const highs = (): Promise<Highs> => (highsInstance ??= loadHighs());

/** HiGHS primal_solution_status: 2 = a feasible primal solution is available. */
const FEASIBLE_SOLUTION = 2;

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
  const model = solver.createModel({ format: 'lp', data: built.lp });
  try {
    model.options.set({
      output_flag: false,
      time_limit: limits.timeLimitSeconds,
      mip_rel_gap: limits.mipGapPercent / 100,
    });
    const dimensions = model.getDimensions();
    const modelSize = {
      rows: dimensions.numRows,
      columns: dimensions.numCols,
      integers: built.size.integers,
    };
    model.run({
      [solver.constants.callbackType.mipLogging](event) {
        const { mip_gap: gap, mip_primal_bound: primal } = event.data;
        onProgress({
          seconds: seconds(),
          gapPercent: gap !== undefined && Number.isFinite(gap) ? gap * 100 : null,
          objective: primal !== undefined && Number.isFinite(primal) ? primal : null,
        });
        return undefined;
      },
    });
    const codes = solver.constants.modelStatus;
    const code = model.getModelStatus();
    const hasSolution = Number(model.info.get('primal_solution_status')) === FEASIBLE_SOLUTION;
    let status: SolveStatus;
    if (code === codes.optimal) status = 'optimal';
    else if (code === codes.infeasible) status = 'infeasible';
    else if (code === codes.unbounded || code === codes.unboundedOrInfeasible) status = 'unbounded';
    else if (code === codes.timeLimit && hasSolution) status = 'time-limit';
    else if (code === codes.timeLimit) {
      return failedResult(instance, built.variables, {
        status: 'time-limit',
        message: `The solver found no feasible plan within the ${limits.timeLimitSeconds} s time limit. Allow more time or a larger MIP gap.`,
        solveSeconds: seconds(),
        modelSize,
      });
    } else status = 'error';
    if (status !== 'optimal' && status !== 'time-limit') {
      const message =
        status === 'infeasible'
          ? INFEASIBLE_MESSAGE
          : status === 'unbounded'
            ? UNBOUNDED_MESSAGE
            : `The solver stopped without a plan (HiGHS model status ${code}).`;
      return failedResult(instance, built.variables, { status, message, solveSeconds: seconds(), modelSize });
    }
    const columns = model.getSolution().colValue;
    const values = new Map<string, number>();
    for (let i = 0; i < columns.length; i += 1) {
      // Only shipments and open DCs matter to the figures; most columns are zero.
      if (Math.abs(columns[i]!) > 1e-9) values.set(model.getColName(i), columns[i]!);
    }
    const gap = built.size.integers > 0 ? Number(model.info.get('mip_gap')) : 0;
    return interpretSolution(instance, built.variables, {
      status,
      objective: model.getObjectiveValue(),
      mipGapPercent: Number.isFinite(gap) ? Math.round(gap * 1e6) / 1e4 : null,
      solveSeconds: seconds(),
      modelSize,
      values,
    });
  } finally {
    model.dispose();
  }
}
