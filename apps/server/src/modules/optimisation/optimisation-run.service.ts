import {
  applyScenario,
  compareResults,
  horizonRange,
  type NetworkInstance,
  type OptimisationRun,
  type OptimisationRunDetail,
  type RunComparison,
  type RunProgress,
  type ScenarioChange,
  type SolveResult,
  type SolveSettings,
  type ZStartRunBody,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DatabaseKind } from '../../db/database';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { systemClock, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { recomputeInventoryAfterForecast } from '../inventory';
import type { SolveLimits, SolveProgress } from './highs-solve';
import {
  failAbandonedRuns,
  findRun,
  findScenario,
  finishRun,
  insertRunInSlot,
  listRuns,
  loadDemand,
  loadNetwork,
  updateRunProgress,
  type RunRow,
} from './optimisation.repository';

/**
 * Solves running at once on all the servers sharing the database (counted in optimisation_runs).
 * Each holds a core and up to 2 GB of WebAssembly memory; on the 2-core machines a third would
 * only slow the other two.
 */
export const MAX_CONCURRENT_SOLVES = 2;
/** Progress is written at most this often while HiGHS works. */
const PROGRESS_INTERVAL_MS = 500;
/**
 * A run still 'running' this long after it started belongs to a server that stopped: a live one
 * ends within its time limit (≤ 300 s) plus the thread's 60 s grace.
 */
const ABANDONED_AFTER_SECONDS = 600;

export type Solver = (
  instance: NetworkInstance,
  limits: SolveLimits,
  onProgress: (progress: SolveProgress) => void,
) => Promise<SolveResult>;

type Summary = NonNullable<OptimisationRun['summary']>;

function summaryOf(result: SolveResult): Summary {
  return {
    status: result.status,
    totalCost: result.costs?.total ?? null,
    servicePercent: result.servicePercent,
    openDcs: result.dcs.filter((dc) => dc.isOpen).length,
    mipGapPercent: result.mipGapPercent,
    message: result.message,
  };
}

function toRun(row: RunRow, summary: Summary | null): OptimisationRun {
  return {
    id: row.id,
    status: row.status,
    scenarioId: row.scenario_id,
    scenarioName: row.scenario_name,
    requestedBy: row.requested_by,
    settings: row.settings as SolveSettings,
    progress: row.progress as RunProgress,
    error: row.error,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    summary,
  };
}

/**
 * Solve runs: a run reads the network, the scenario and the plan's demand when it is
 * requested, answers at once, and solves on a worker thread in the background; its progress (MIP
 * gap, seconds) and then its result are stored in its row, like forecast runs.
 */
export class OptimisationRunService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly solver: Solver,
    private readonly log: { error: (obj: unknown, msg: string) => void; info: (msg: string) => void },
    private readonly databaseKind: DatabaseKind,
    /** Today, for the inventory recompute after a baseline solve. */
    private readonly clock: Clock = systemClock,
  ) {}

  async recoverAbandonedRuns(): Promise<void> {
    const count = await failAbandonedRuns(
      this.db,
      this.databaseKind === 'pglite' ? null : ABANDONED_AFTER_SECONDS,
    );
    if (count > 0) this.log.info(`Marked ${count} interrupted optimisation run(s) as failed`);
  }

  async start(scope: AccessScope, body: z.output<typeof ZStartRunBody>): Promise<OptimisationRun> {
    const scenario = body.scenarioId ? await findScenario(this.db, body.scenarioId) : undefined;
    if (body.scenarioId && !scenario) throw AppError.notFound(`Scenario ${body.scenarioId} was not found`);
    const settings: SolveSettings = {
      horizon: body.horizon,
      demandSource: body.demandSource,
      timeLimitSeconds: body.timeLimitSeconds,
      mipGapPercent: body.mipGapPercent,
    };
    const instance = await this.instanceFor(scope, settings, (scenario?.changes as ScenarioChange[]) ?? []);
    const { row, running } = await insertRunInSlot(
      this.db,
      {
        scenarioId: scenario?.id ?? null,
        scenarioName: scenario?.name ?? null,
        requestedBy: scope.userName,
        settings,
      },
      { maxRunning: MAX_CONCURRENT_SOLVES, abandonedAfterSeconds: ABANDONED_AFTER_SECONDS },
    );
    if (!row) {
      throw new AppError(
        'BUSY',
        `${running} solves are running already. Start this one when one of them has finished.`,
      );
    }
    void this.execute(row.id, instance, settings, !scenario);
    return toRun(row, null);
  }

  /** The baseline network with the scenario's changes, and the plan's demand over the horizon. */
  private async instanceFor(
    scope: AccessScope,
    settings: SolveSettings,
    changes: readonly ScenarioChange[],
  ): Promise<NetworkInstance> {
    const range = horizonRange(settings.horizon);
    const [network, demand] = await Promise.all([
      loadNetwork(this.db),
      loadDemand(this.db, {
        clientIds: scope.clientIds,
        from: range.from,
        to: range.to,
        granularity: settings.horizon.granularity,
        source: settings.demandSource,
      }),
    ]);
    return applyScenario(
      {
        periods: range.periods,
        plants: network.plants,
        dcs: network.dcs,
        inboundLanes: network.inboundLanes,
        outboundLanes: network.outboundLanes,
        demand,
        unmetPenaltyPerUnit: network.unmetPenaltyPerUnit,
      },
      changes,
    );
  }

  private async execute(
    runId: number,
    instance: NetworkInstance,
    settings: SolveSettings,
    baseline: boolean,
  ): Promise<void> {
    let lastReport = 0;
    let latest: RunProgress = { seconds: 0, gapPercent: null, objective: null };
    const onProgress = (progress: SolveProgress): void => {
      latest = progress;
      const now = Date.now();
      if (now - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = now;
      updateRunProgress(this.db, runId, progress).catch((error: unknown) =>
        this.log.error({ err: error, runId }, 'could not record solve progress'),
      );
    };
    try {
      const result = await this.solver(
        instance,
        { timeLimitSeconds: settings.timeLimitSeconds, mipGapPercent: settings.mipGapPercent },
        onProgress,
      );
      await finishRun(this.db, runId, {
        status: 'succeeded',
        result,
        error: null,
        progress: {
          ...latest,
          seconds: result.solveSeconds,
          gapPercent: result.mipGapPercent,
          objective: result.objective,
        },
      });
      this.log.info(`Optimisation run ${runId} finished: ${result.status} in ${result.solveSeconds} s`);
      // A baseline plan is the supply the S&D Match Trend projects (docs/inventory.md).
      if (baseline && result.costs) {
        await recomputeInventoryAfterForecast(
          this.db,
          this.log,
          this.clock.now(),
          `baseline network solve ${runId}`,
        );
      }
    } catch (error) {
      this.log.error({ err: error, runId }, 'optimisation run failed');
      await finishRun(this.db, runId, {
        status: 'failed',
        result: null,
        error: error instanceof Error ? error.message : 'Unknown error',
      }).catch(() => undefined);
    }
  }

  async list(limit: number): Promise<OptimisationRun[]> {
    const rows = await listRuns(this.db, limit);
    return rows.map((row) => toRun(row, row.summary as Summary | null));
  }

  async get(id: number): Promise<OptimisationRunDetail> {
    const row = await findRun(this.db, id);
    if (!row) throw AppError.notFound(`Optimisation run ${id} was not found`);
    const result = row.result as SolveResult | null;
    return { ...toRun(row, result ? summaryOf(result) : null), result };
  }

  async compare(baseId: number, scenarioId: number): Promise<RunComparison> {
    const [base, scenario] = await Promise.all([this.get(baseId), this.get(scenarioId)]);
    for (const run of [base, scenario]) {
      if (!run.result) {
        throw new AppError('CONFLICT', `Optimisation run ${run.id} has no result (${run.status}) to compare`);
      }
    }
    return compareResults(base.result!, scenario.result!);
  }
}
