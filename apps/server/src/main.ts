import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { developmentAuthenticator } from './plugins/development-authenticator';
import { seedIfEmpty } from './seed/seed-if-empty';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL }
      : { kind: 'pglite', dataDir: config.PGLITE_DATA_DIR },
  );
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, authenticate: developmentAuthenticator });
  if (config.SEED_ON_START) {
    await seedIfEmpty(database.db, {
      products: config.SEED_PRODUCTS,
      weeks: config.SEED_WEEKS,
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
