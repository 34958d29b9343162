import { dirname, resolve } from 'node:path';
import { buildApp } from './app';
import { createAuthSetup } from './modules/auth';
import { ConfigError, loadConfig } from './config';
import { clockFromConfig } from './lib/clock';
import { migrateToLatest, openDatabase } from './db/database';
import { demoWindow } from './seed/seed-demo-data';
import { seedIfEmpty } from './seed/seed-if-empty';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(
    config.DATABASE_URL
      ? {
          kind: 'postgres',
          url: config.DATABASE_URL,
          timeouts: { statementMs: config.DB_STATEMENT_TIMEOUT_MS, lockMs: config.DB_LOCK_TIMEOUT_MS },
        }
      : { kind: 'pglite', dataDir: config.PGLITE_DATA_DIR },
  );
  await migrateToLatest(database.db);
  const auth = await createAuthSetup(config, {
    keysFile:
      config.OIDC_KEYS_FILE ?? resolve(dirname(resolve(config.PGLITE_DATA_DIR)), 'oidc-signing-keys.json'),
  });
  const clock = clockFromConfig(config);
  const app = await buildApp({ config, database, auth, clock });
  if (auth.mode === 'embedded') {
    app.log.warn(
      `Sign-in uses the embedded demo provider at ${auth.clientConfig.issuer} (demo users, passwords on its page). Set OIDC_ISSUER and OIDC_CLIENT_ID for a real identity provider.`,
    );
  }
  if (config.SEED_ON_START) {
    await seedIfEmpty(database.db, {
      products: config.SEED_PRODUCTS,
      ...demoWindow(config.SEED_WEEKS, config.PLAN_HORIZON_WEEKS),
      anchor: clock.now(),
      log: (msg) => app.log.info(msg),
    });
  }
  const shutdown = async (): Promise<void> => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  // One clear line, no stack trace, for what an operator can fix.
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(
      `Planning Suite failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  process.exit(1);
});
