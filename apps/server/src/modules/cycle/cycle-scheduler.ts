import { cycleCron, nextCycleRun, type CycleSchedule } from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../../db/schema';
import { ForecastQueue, currentSchema, queueStatementRunner } from '../forecast-runs';
import type { CycleScheduler } from './cycle.service';

/** The job queue's name for the cycle's scheduled firings. */
const CYCLE_QUEUE = 'planning-cycle';
/** Longest setTimeout delay (about 24.8 days); a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * PostgreSQL: the schedule is a cron schedule of the job queue (pg-boss), kept in the database, so
 * any number of server processes share it; pg-boss sends one job per firing and one process takes
 * it. Its tables are the forecast queue's (`pgboss`, or `<schema>_pgboss` beside a test schema).
 */
export async function openQueueScheduler(
  db: Kysely<Database>,
  log: FastifyBaseLogger,
  fire: () => Promise<void>,
): Promise<CycleScheduler> {
  const boss = new PgBoss({
    db: queueStatementRunner(db),
    schema: ForecastQueue.schemaFor(await currentSchema(db)),
    // The cron monitor looks for due schedules this often (pg-boss sends a firing up to a minute late).
    cronMonitorIntervalSeconds: 30,
  });
  boss.on('error', (error) => log.error({ err: error }, 'cycle queue error'));
  await boss.start();
  await boss.createQueue(CYCLE_QUEUE);
  await boss.work(CYCLE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async () => {
    await fire();
  });
  return {
    apply: async (schedule) => {
      if (schedule.isEnabled)
        await boss.schedule(CYCLE_QUEUE, cycleCron(schedule), {}, { tz: schedule.timeZone });
      else await boss.unschedule(CYCLE_QUEUE);
    },
    stop: () => boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 }),
  };
}

/**
 * The embedded database: one process, so a timer to the schedule's next run. A firing that finds
 * the schedule changed meanwhile never happens: every change sets the timer again.
 */
export function timerScheduler(
  fire: () => Promise<void>,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): CycleScheduler {
  let timer: NodeJS.Timeout | undefined;
  let current: CycleSchedule | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!current?.isEnabled) return;
    const at = nextCycleRun(current, now()).getTime();
    const wait = at - now().getTime();
    timer = setTimeout(
      () => {
        if (now().getTime() < at) return arm();
        fire()
          .catch((error: unknown) => log.error({ err: error }, 'scheduled cycle run not started'))
          .finally(arm);
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    timer.unref();
  };
  return {
    apply: (schedule) => {
      current = schedule;
      arm();
      return Promise.resolve();
    },
    stop: () => {
      current = undefined;
      clearTimeout(timer);
      return Promise.resolve();
    },
  };
}
