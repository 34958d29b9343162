import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { developmentAuthenticator } from '../apps/server/src/plugins/development-authenticator';
import { seedDemoData, type SeedSummary } from '../apps/server/src/seed/seed-demo-data';

export const BENCH_POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type BenchServer = {
  baseUrl: string;
  seed: SeedSummary;
  database: DatabaseHandle;
  close: () => Promise<void>;
};

/** The real server over a freshly seeded database (PGlite in memory, or a throw-away PostgreSQL schema). */
export async function startBenchServer(kind: 'pglite' | 'postgres', size: { products: number; weeks: number }): Promise<BenchServer> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  let database: DatabaseHandle;
  if (kind === 'postgres') {
    const admin = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    database = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, schema });
  } else {
    database = openDatabase({ kind: 'pglite' });
  }
  await migrateToLatest(database.db);
  const seed = await seedDemoData(database.db, { ...size, anchor: new Date('2026-11-15T00:00:00Z') });
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent' }),
    database,
    authenticate: developmentAuthenticator,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seed,
    database,
    close: async () => {
      await app.close();
      if (kind === 'postgres') await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
      await database.close();
    },
  };
}
