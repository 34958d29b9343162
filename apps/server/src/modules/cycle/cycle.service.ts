import {
  CLIENT_IDS,
  CYCLE_STEPS,
  DEFAULT_CYCLE_SCHEDULE,
  nextCycleRun,
  type CycleOverview,
  type CycleRun,
  type CycleSchedule,
  type CycleStepName,
  type CycleTrigger,
} from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../../db/database';
import { runInBackground } from '../../db/pglite-dialect';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { Notifier } from '../notifications';
import { putFeedFile, waitingFeedFiles } from './cycle-feed';
import type { CycleStepDefinition } from './cycle-steps';
import {
  endRun,
  endStep,
  failInterruptedRuns,
  findRun,
  findRunningRun,
  findSchedule,
  insertRunningRun,
  latestRunId,
  listRecentRuns,
  listSteps,
  nextRunId,
  recordStepProgress,
  reopenFailedRun,
  saveSchedule,
  startLockedRun,
  startStep,
  type CycleRunRow,
  type CycleStepRow,
} from './cycle.repository';

/** Advisory-lock class of cycle runs: (class, run id) is held by the process running it. */
const RUN_LOCK_CLASS = 7_355;
/** Runs the overview lists. */
const RECENT_RUNS = 10;
/** A running step's progress is written at most this often. */
const PROGRESS_INTERVAL_MS = 500;

/** Whom a scheduled run acts for. */
const SCHEDULE_SCOPE: AccessScope = {
  userId: 'planning-cycle',
  userName: 'Planning cycle',
  groups: ['admin'],
  clientIds: CLIENT_IDS,
  canWrite: true,
  isAdmin: true,
};

const iso = (date: Date | string | null): string | null => (date ? new Date(date).toISOString() : null);

function toStep(row: CycleStepRow): CycleRun['steps'][number] {
  return {
    step: row.step as CycleStepName,
    status: row.status as CycleRun['steps'][number]['status'],
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: iso(row.finished_at),
    progress: row.progress,
    message: row.message,
    counts: row.counts,
  };
}

/** The step a rerun starts from: the last failed attempt's step of a failed run. */
function failedStep(steps: readonly CycleStepRow[]): CycleStepName | null {
  const failed = steps.filter((step) => step.status === 'failed').at(-1);
  return failed ? (failed.step as CycleStepName) : null;
}

export type CycleScheduler = {
  /** The schedule changed (or the process started): fire on the new one. */
  apply: (schedule: CycleSchedule) => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * The planning cycle: its schedule, and runs of its steps in order, each step's outcome in the
 * log. One run at a time on any number of processes (the unique running row); on PostgreSQL the
 * process running it holds the run's advisory lock, so a run whose process died is told apart.
 * Runs go on in the background: the request that starts one answers at once.
 */
export class CycleService {
  /** Runs this process is executing (the embedded database has no other process to ask). */
  private readonly ownRuns = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private scheduler: CycleScheduler | undefined;
  private isStopping = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: {
      databaseKind: DatabaseKind;
      log: FastifyBaseLogger;
      notifier: Notifier;
      steps: readonly CycleStepDefinition[];
      feedDir: string | undefined;
      now: () => Date;
    },
  ) {}

  useScheduler(scheduler: CycleScheduler): void {
    this.scheduler = scheduler;
  }

  /** Sets the scheduler to the saved schedule (a process's timer, at start). */
  async applySchedule(): Promise<void> {
    await this.scheduler?.apply(await this.schedule());
  }

  async schedule(): Promise<CycleSchedule> {
    return (await findSchedule(this.db))?.schedule ?? DEFAULT_CYCLE_SCHEDULE;
  }

  async overview(): Promise<CycleOverview> {
    const now = this.options.now();
    const saved = await findSchedule(this.db);
    const schedule = saved?.schedule ?? DEFAULT_CYCLE_SCHEDULE;
    const runs = await listRecentRuns(this.db, RECENT_RUNS);
    return {
      schedule,
      updatedBy: saved?.updatedBy ?? null,
      updatedAt: iso(saved?.updatedAt ?? null),
      nextRunAt: schedule.isEnabled ? nextCycleRun(schedule, now).toISOString() : null,
      feed: {
        isConfigured: Boolean(this.options.feedDir),
        waitingFiles: this.options.feedDir ? await waitingFeedFiles(this.options.feedDir) : [],
      },
      runs: await this.withSteps(runs),
    };
  }

  async saveSchedule(scope: AccessScope, schedule: CycleSchedule): Promise<CycleOverview> {
    await saveSchedule(this.db, schedule, scope);
    await this.scheduler?.apply(schedule);
    return this.overview();
  }

  async run(id: number): Promise<CycleRun> {
    const row = await findRun(this.db, id);
    if (!row) throw AppError.notFound(`Cycle run ${id} was not found`);
    const [run] = await this.withSteps([row]);
    return run!;
  }

  private async withSteps(rows: readonly CycleRunRow[]): Promise<CycleRun[]> {
    const steps = await listSteps(
      this.db,
      rows.map((row) => row.id),
    );
    const latest = await latestRunId(this.db);
    return rows.map((row) => {
      const own = steps.filter((step) => step.run_id === row.id);
      return {
        id: row.id,
        trigger: row.trigger as CycleTrigger,
        requestedBy: row.requested_by,
        status: row.status as CycleRun['status'],
        startedAt: new Date(row.started_at).toISOString(),
        finishedAt: iso(row.finished_at),
        error: row.error,
        rerunFrom: row.status === 'failed' && row.id === latest ? failedStep(own) : null,
        steps: own.map(toStep),
      };
    });
  }

  /** Run now (an admin). */
  async runNow(scope: AccessScope): Promise<CycleRun> {
    return this.run(await this.begin('manual', scope));
  }

  /** The schedule fired: starts a run unless one is going (then this firing is skipped). */
  async runScheduled(): Promise<number | undefined> {
    try {
      return await this.begin('schedule', SCHEDULE_SCOPE);
    } catch (error) {
      if (error instanceof AppError && error.code === 'BUSY') {
        this.options.log.warn(error.message);
        return undefined;
      }
      throw error;
    }
  }

  /** Runs a failed run again from its failed step; only the latest run, only when none is going. */
  async rerun(scope: AccessScope, id: number): Promise<CycleRun> {
    const current = await this.run(id);
    if (current.status !== 'failed' || current.rerunFrom === null)
      throw new AppError(
        'CONFLICT',
        current.status === 'failed'
          ? `Cycle run ${id} is not the latest run; only the latest failed run can be rerun`
          : `Cycle run ${id} has not failed; only a failed run can be rerun`,
      );
    const from = current.rerunFrom;
    const earlier = Object.fromEntries(
      current.steps.filter((step) => step.status === 'succeeded').map((step) => [step.step, step.counts]),
    );
    const requester = { requestedBy: scope.userName, requestedById: scope.userId };
    const row = await this.claim(
      id,
      (db) => reopenFailedRun(db, id, requester),
      (run) => this.execute(run, scope, CYCLE_STEPS.indexOf(from), earlier),
    );
    if (!row) throw await this.busy();
    return this.run(id);
  }

  private async begin(trigger: CycleTrigger, scope: AccessScope): Promise<number> {
    const request = {
      trigger,
      requestedBy: scope.userName,
      requestedById: trigger === 'manual' ? scope.userId : null,
    };
    const attempt = async () => {
      const id = this.options.databaseKind === 'postgres' ? await nextRunId(this.db) : undefined;
      return this.claim(
        id,
        (db) => insertRunningRun(db, { ...request, ...(id === undefined ? {} : { id }) }),
        (run) => this.execute(run, scope, 0, {}),
      );
    };
    let row = await attempt();
    if (!row) {
      // The run in the way may belong to a process that died; then it must not block this one.
      await this.recoverInterruptedRuns();
      row = await attempt();
    }
    if (!row) throw await this.busy();
    return row.id;
  }

  private async busy(): Promise<AppError> {
    const running = await findRunningRun(this.db);
    const detail = running
      ? ` (run ${running.id}, started by ${running.requested_by} at ${new Date(running.started_at).toISOString()})`
      : '';
    return new AppError('BUSY', `A cycle run is already in progress${detail}. Wait for it to finish.`);
  }

  /**
   * Writes the running row and sets `work` going in the background, holding the run's lock on
   * PostgreSQL. Undefined when another run is going.
   */
  private async claim(
    lockId: number | undefined,
    write: (db: Kysely<Database>) => Promise<CycleRunRow | undefined>,
    work: (run: CycleRunRow) => Promise<void>,
  ): Promise<CycleRunRow | undefined> {
    const tracked = async (run: CycleRunRow): Promise<void> => {
      this.ownRuns.add(run.id);
      try {
        await work(run);
      } finally {
        this.ownRuns.delete(run.id);
      }
    };
    if (this.options.databaseKind === 'postgres' && lockId !== undefined) {
      const { row, finished } = await startLockedRun(this.db, RUN_LOCK_CLASS, lockId, write, tracked);
      this.track(finished);
      return row;
    }
    const row = await write(this.db);
    if (row) this.track(runInBackground(() => tracked(row)));
    return row;
  }

  private track(work: Promise<void>): void {
    const settled = work
      .catch((error: unknown) => this.options.log.error({ err: error }, 'cycle run failed'))
      .finally(() => this.running.delete(settled));
    this.running.add(settled);
  }

  /** Runs the steps from `from` on, in order; the first that fails stops the run. */
  private async execute(
    run: CycleRunRow,
    scope: AccessScope,
    from: number,
    earlier: Partial<Record<CycleStepName, Record<string, number>>>,
  ): Promise<void> {
    const done = { ...earlier };
    for (const step of this.options.steps.slice(from)) {
      if (this.isStopping) {
        await endRun(this.db, run.id, {
          status: 'failed',
          error: `Interrupted: the server stopped before the step ${step.name}`,
        });
        return;
      }
      const stepId = await startStep(this.db, run.id, step.name);
      let lastReport = 0;
      const reportProgress = (percent: number): void => {
        const now = Date.now();
        if (now - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = now;
        recordStepProgress(this.db, stepId, Math.max(0, Math.min(100, Math.round(percent)))).catch(
          (error: unknown) => this.options.log.error({ err: error }, 'could not record cycle progress'),
        );
      };
      try {
        const outcome = await step.run({
          runId: run.id,
          scope,
          earlier: done,
          reportProgress,
          isStopping: () => this.isStopping,
        });
        await endStep(this.db, stepId, outcome);
        if (outcome.status === 'succeeded') done[step.name] = outcome.counts;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.options.log.error({ err: error, runId: run.id, step: step.name }, 'cycle step failed');
        await endStep(this.db, stepId, { status: 'failed', message, counts: {} });
        await endRun(this.db, run.id, { status: 'failed', error: `${step.name}: ${message}` });
        await this.tellFailure(run, step.name, message);
        return;
      }
    }
    await endRun(this.db, run.id, { status: 'succeeded', error: null });
    this.options.log.info(`Cycle run ${run.id} finished`);
  }

  /** The admin who started the run, or for a scheduled run the one who set the schedule. */
  private async tellFailure(run: CycleRunRow, step: CycleStepName, error: string): Promise<void> {
    const adminId = run.requested_by_id ?? (await findSchedule(this.db))?.updatedById;
    if (!adminId) return;
    await this.options.notifier.notify({
      recipients: { userIds: [adminId] },
      kind: 'cycle-failed',
      content: { runId: run.id, step, error },
    });
  }

  /**
   * A run left 'running' by a stopped server would block every later run: mark it failed. On a
   * shared PostgreSQL only runs whose process is gone (no advisory lock) are touched.
   */
  async recoverInterruptedRuns(): Promise<void> {
    const count = await failInterruptedRuns(this.db, {
      lockClass: RUN_LOCK_CLASS,
      isShared: this.options.databaseKind === 'postgres',
      keep: [...this.ownRuns],
    });
    if (count > 0) this.options.log.info(`Marked ${count} interrupted cycle run(s) as failed`);
  }

  /** Puts a pushed actuals file in the feed folder. */
  async pushFeedFile(file: {
    fileName: string;
    bytes: Buffer;
  }): Promise<{ fileName: string; waitingFiles: string[] }> {
    const dir = this.options.feedDir;
    if (!dir)
      throw new AppError(
        'CONFLICT',
        'The actuals feed has no folder: set CYCLE_FEED_DIR on the server to take pushed files',
      );
    await putFeedFile(dir, file.fileName, file.bytes);
    return { fileName: file.fileName, waitingFiles: await waitingFeedFiles(dir) };
  }

  /** Stops the schedule and waits for this process's runs to end (server shutdown, tests). */
  async stop(): Promise<void> {
    this.isStopping = true;
    await this.scheduler?.stop();
    await Promise.all([...this.running]);
  }
}
