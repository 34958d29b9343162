import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { createAuthSetup } from '../apps/server/src/modules/auth/auth-setup';
import { loadConfig } from '../apps/server/src/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { seedDemoData, type SeedSummary } from '../apps/server/src/seed/seed-demo-data';
import { signInOverHttp } from '../apps/server/test/support/sign-in';
import { freePort } from '../apps/server/test/support/free-port';

export const BENCH_POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type BenchServer = {
  baseUrl: string;
  seed: SeedSummary;
  database: DatabaseHandle;
  /** Authorization header of the demo admin, signed in through the embedded provider. */
  headers: Record<string, string>;
  close: () => Promise<void>;
};

/** The real server over a freshly seeded database (PGlite in memory, or a throw-away PostgreSQL schema). */
export async function startBenchServer(
  kind: 'pglite' | 'postgres',
  size: { products: number; weeks: number },
  /** PostgreSQL session settings of the server's pool connections. */
  settings?: Record<string, string>,
  /** The built web app to serve (the first-load bench); none by default. */
  webDistDir = '/nonexistent',
): Promise<BenchServer> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  let database: DatabaseHandle;
  if (kind === 'postgres') {
    const admin = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    // The seed runs without statement limits, as the start-up seed does (a large data set's totals
    // rebuild outruns the pool's 30 s); what is measured runs with the product's limits and settings.
    database = openDatabase({
      kind: 'postgres',
      url: BENCH_POSTGRES_URL,
      schema,
      poolSize: 1,
      timeouts: { statementMs: 0, lockMs: 0 },
    });
  } else {
    database = openDatabase({ kind: 'pglite' });
  }
  await migrateToLatest(database.db);
  const seed = await seedDemoData(database.db, { ...size, anchor: new Date('2026-11-15T00:00:00Z') });
  if (kind === 'postgres') {
    await sql`vacuum analyze`.execute(database.db);
    await database.close();
    database = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, schema, settings });
  }
  // The embedded provider's issuer names the port, so it is chosen first.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: webDistDir,
    PORT: String(port),
    PUBLIC_URL: baseUrl,
  });
  const app = await buildApp({ config, database, auth: await createAuthSetup(config) });
  await app.listen({ port, host: '127.0.0.1' });
  const tokens = await signInOverHttp(baseUrl, { email: 'admin@demo.local', password: 'admin-demo' });
  return {
    baseUrl,
    seed,
    database,
    headers: { authorization: `Bearer ${tokens.id_token}` },
    close: async () => {
      await app.close();
      if (kind === 'postgres') await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
      await database.close();
    },
  };
}

/** GET an API path as the bench's admin; the envelope's data. */
export async function getJson<T>(server: BenchServer, path: string): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: server.headers });
  if (!response.ok) throw new Error(`GET ${path} failed: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}
