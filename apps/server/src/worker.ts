import Fastify from 'fastify';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { openForecastRuns } from './modules/forecast-runs/forecast-runs.setup';
import { createNotifier } from './modules/notifications';

/**
 * `npm run worker`: a process that only takes forecast-run chunks from the PostgreSQL job queue
 * (as many as wanted, on any machine that reaches the database); the server processes enqueue
 * runs and serve progress. The embedded database has no queue: the server runs forecasts itself.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    throw new ConfigError(
      'npm run worker needs DATABASE_URL (PostgreSQL): with the embedded database the server runs forecasts itself',
    );
  }
  // The server's logger (pino through Fastify), so worker lines look like the server's.
  const log = Fastify({ logger: { level: config.LOG_LEVEL } }).log;
  const database = openDatabase({
    kind: 'postgres',
    url: config.DATABASE_URL,
    timeouts: { statementMs: config.DB_STATEMENT_TIMEOUT_MS, lockMs: config.DB_LOCK_TIMEOUT_MS },
  });
  await migrateToLatest(database.db);
  const { service, queue } = await openForecastRuns(
    database,
    config,
    log,
    createNotifier(database.db, config, log),
  );
  await service.work();
  log.info('Forecast worker started: taking forecast-run chunks from the job queue');
  const shutdown = async (): Promise<void> => {
    // A chunk under way is finished first; one that cannot finish in time is retried elsewhere.
    await queue?.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Forecast worker failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
