import { CLIENT_IDS, toIsoDate, weekStartSunday, type CycleStepName, type ForecastRun } from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { refreshExceptionQueues, snapshotForecasts } from '../control-tower';
import type { ForecastRunService } from '../forecast-runs';
import { DigestMailer, type Notifier } from '../notifications';
import { takeFeed, type ActualsLoader } from './cycle-feed';

/** What one step did: shown in the cycle log. A step that throws has failed. */
export type CycleStepOutcome = {
  status: 'succeeded' | 'skipped';
  message: string | null;
  counts: Record<string, number>;
};

export type CycleStepContext = {
  runId: number;
  /** Whom the run acts for: the admin who started it, or the cycle itself on its schedule. */
  scope: AccessScope;
  /** The counts of the run's steps that succeeded before this one (of this attempt or an earlier one). */
  earlier: Partial<Record<CycleStepName, Record<string, number>>>;
  /** Percent done, for the log's progress while a long step runs. */
  reportProgress: (percent: number) => void;
  /** The server is stopping: a step that waits gives up (its run fails and can be rerun). */
  isStopping: () => boolean;
};

export type CycleStepFunction = (context: CycleStepContext) => Promise<CycleStepOutcome>;

/** One named step of the cycle; the cycle runs the list in order. */
export type CycleStepDefinition = { name: CycleStepName; run: CycleStepFunction };

/**
 * Adds the weeks the current week brought to the plan's horizon (the rolling horizon). Answers
 * what it did by name (weeks, records, …).
 */
export type HorizonRoller = (context: {
  reportProgress: (percent: number) => void;
}) => Promise<{ counts: Record<string, number>; message?: string }>;

/** How often the forecast step reads its run's progress. */
const FORECAST_POLL_MS = 250;

export type CycleStepDependencies = {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  notifier: Notifier;
  forecastRuns: ForecastRunService;
  /** The actuals feed's folder (CYCLE_FEED_DIR) and its loader; no folder: the step is skipped. */
  feed: { dir: string | undefined; load: ActualsLoader };
  /** The rolling horizon's roll; none: the step is skipped. */
  rollHorizon: HorizonRoller | undefined;
  /** "Now" for the snapshot's week (the app's clock). */
  now: () => Date;
  /** Mail for the digest step (SMTP_URL); none: planners are told in the app only. */
  mail: { smtpUrl: string; from: string } | undefined;
};

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the step waits for before starting its own (one started by hand, another cycle's). */
const MAX_FORECAST_WAITS = 3;

/** Polls a forecast run until it ends, reporting its progress; gives up when the server stops. */
async function followForecastRun(
  forecastRuns: ForecastRunService,
  run: ForecastRun,
  context: Pick<CycleStepContext, 'reportProgress' | 'isStopping'>,
): Promise<ForecastRun> {
  let current = run;
  while (current.status === 'running') {
    if (context.isStopping())
      throw new Error(`Interrupted: the server stopped while forecast run ${current.id} went on`);
    context.reportProgress(current.progressPercent);
    await delay(FORECAST_POLL_MS);
    current = await forecastRuns.get(current.id);
  }
  return current;
}

/**
 * Starts a forecast run; one already going (an admin's, started by hand) is waited for first, so
 * the cycle's run forecasts from everything the cycle loaded.
 */
async function startForecastRun(
  forecastRuns: ForecastRunService,
  context: Pick<CycleStepContext, 'scope' | 'isStopping'>,
): Promise<ForecastRun> {
  for (let waits = 0; ; waits++) {
    try {
      return await forecastRuns.start(context.scope);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'BUSY') || waits >= MAX_FORECAST_WAITS) throw error;
      const [running] = await forecastRuns.listRecent(1);
      if (running?.status === 'running')
        await followForecastRun(forecastRuns, running, { ...context, reportProgress: () => undefined });
    }
  }
}

/** The cycle's steps, in the order of CYCLE_STEPS. */
export function cycleSteps(deps: CycleStepDependencies): CycleStepDefinition[] {
  const { db } = deps;
  return [
    {
      name: 'actuals-feed',
      run: async ({ scope }) => {
        if (!deps.feed.dir)
          return { status: 'skipped', message: 'No feed folder is configured (CYCLE_FEED_DIR)', counts: {} };
        const outcome = await takeFeed(deps.feed.dir, (file) => deps.feed.load({ ...file, scope }));
        if (outcome.failure)
          throw new Error(
            `${outcome.failure.fileName} was refused and moved to failed/: ${outcome.failure.message}`,
          );
        return {
          status: 'succeeded',
          message: outcome.files === 0 ? 'No files were waiting' : null,
          counts: { files: outcome.files, ...outcome.counts },
        };
      },
    },
    {
      name: 'roll-horizon',
      run: async ({ reportProgress }) => {
        if (!deps.rollHorizon)
          return { status: 'skipped', message: 'No horizon roll is wired into the cycle', counts: {} };
        const rolled = await deps.rollHorizon({ reportProgress });
        return { status: 'succeeded', message: rolled.message ?? null, counts: rolled.counts };
      },
    },
    {
      name: 'forecast-run',
      run: async (context) => {
        const run = await followForecastRun(
          deps.forecastRuns,
          await startForecastRun(deps.forecastRuns, context),
          context,
        );
        if (run.status === 'failed') throw new Error(`Forecast run ${run.id} failed: ${run.error ?? ''}`);
        return {
          status: 'succeeded',
          message: `Forecast run ${run.id}`,
          counts: { products: run.totalProducts, records: run.updatedRecords },
        };
      },
    },
    {
      name: 'forecast-snapshot',
      run: async () => {
        const week = toIsoDate(weekStartSunday(deps.now()));
        const products = await snapshotForecasts(db, CLIENT_IDS, 'forecast', week);
        return { status: 'succeeded', message: null, counts: { products } };
      },
    },
    {
      name: 'exception-queue',
      run: async () => {
        const { items, fresh } = await refreshExceptionQueues(db, CLIENT_IDS, deps.notifier);
        return { status: 'succeeded', message: null, counts: { items, new: fresh } };
      },
    },
    {
      name: 'planner-digest',
      run: async ({ runId, earlier }) => {
        await deps.notifier.notify({
          recipients: { clientIds: CLIENT_IDS },
          kind: 'cycle-finished',
          content: {
            runId,
            products: earlier['forecast-run']?.products ?? 0,
            exceptions: earlier['exception-queue']?.items ?? 0,
          },
        });
        if (!deps.mail)
          return {
            status: 'succeeded',
            message: 'Planners were told in the app; mail is not configured (SMTP_URL)',
            counts: { mails: 0 },
          };
        // Waiting notifications go out now as each planner's digest, not after the digest delay.
        const mailer = new DigestMailer(db, { ...deps.mail, digestMinutes: 0, log: deps.log });
        try {
          const mails = await mailer.sendDue();
          return { status: 'succeeded', message: null, counts: { mails } };
        } finally {
          await mailer.stop();
        }
      },
    },
  ];
}
