import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { createAuthSetup } from '../apps/server/src/modules/auth/auth-setup';
import { loadConfig } from '../apps/server/src/config';
import { ForecastQueue } from '../apps/server/src/modules/forecast-runs/forecast-queue';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { refreshStaleExtremes } from '../apps/server/src/modules/planning-grid/sort-extremes.repository';
import { seedDemoData, type SeedSummary } from '../apps/server/src/seed/seed-demo-data';
import { seedPlanInSql } from './sql-seed';
import { signInOverHttp } from '../apps/server/test/support/sign-in';
import { freePort } from '../apps/server/test/support/free-port';

export const BENCH_POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type BenchServer = {
  baseUrl: string;
  /** `kept`: a kept schema was reused, not seeded (then `seconds` is what migrating it took). */
  seed: SeedSummary & { kept?: boolean };
  database: DatabaseHandle;
  /** Authorization header of the demo admin, signed in through the embedded provider. */
  headers: Record<string, string>;
  close: () => Promise<void>;
};

/** The real server over a freshly seeded database (PGlite in memory, or a throw-away PostgreSQL schema). */
export async function startBenchServer(
  kind: 'pglite' | 'postgres',
  size: { products: number; weeks: number; futureWeeks?: number; historyWeeks?: number },
  /** PostgreSQL session settings of the server's pool connections. */
  settings?: Record<string, string>,
  options: {
    /** Further configuration of the server (environment variables by name). */
    env?: Record<string, string>;
    /**
     * A PostgreSQL schema to seed once and keep, or to reuse (migrated to the latest version) when
     * it exists: a large data set's seed then runs once, not on every bench run.
     */
    kept?: string;
    /** The built web app to serve (the first-load bench); none by default. */
    webDistDir?: string;
    /** Seed the records in SQL (seedPlanInSql: records only, fast) instead of the demo data set. */
    isSqlSeed?: boolean;
  } = {},
): Promise<BenchServer> {
  const { env = {}, kept, webDistDir = '/nonexistent', isSqlSeed = false } = options;
  const schema = kept ?? `bench_${randomBytes(4).toString('hex')}`;
  let database: DatabaseHandle;
  let isSeeded = false;
  if (kind === 'postgres') {
    const admin = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, poolSize: 1 });
    const { rows } =
      await sql`select 1 from information_schema.schemata where schema_name = ${schema}`.execute(admin.db);
    isSeeded = kept !== undefined && rows.length > 0;
    if (!isSeeded) await sql`create schema ${sql.id(schema)}`.execute(admin.db);
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
  const migrated = performance.now();
  await migrateToLatest(database.db);
  const anchor = new Date('2026-11-15T00:00:00Z');
  const seed = isSeeded
    ? await keptSummary(database, (performance.now() - migrated) / 1000)
    : isSqlSeed
      ? await seedPlanInSql(database.db, { ...size, futureWeeks: size.futureWeeks ?? 26, anchor })
      : await seedDemoData(database.db, { ...size, anchor });
  if (kind === 'postgres') {
    // A kept schema's last run left its spreads' products stale: the server's background refresher
    // would spend the first figures' seconds recomputing them, beside what is measured.
    if (isSeeded) while ((await refreshStaleExtremes(database.db, 1000)) > 0);
    await vacuumSchema(database);
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
    // The seed's week is fixed; a roll to the real week must not run beside what is measured.
    HORIZON_ROLL_IN_SERVER: 'false',
    ...env,
  });
  const app = await buildApp({ config, database, auth: await createAuthSetup(config) });
  await app.listen({ port, host: '127.0.0.1' });
  const signIn = async () =>
    `Bearer ${(await signInOverHttp(baseUrl, { email: 'admin@demo.local', password: 'admin-demo' })).id_token}`;
  const headers = { authorization: await signIn() };
  // A bench on a loaded machine can outlast the ID token (30 minutes): sign in again well before.
  const renew = setInterval(() => {
    signIn().then(
      (authorization) => (headers.authorization = authorization),
      (error: unknown) => console.error('bench sign-in renewal failed:', error),
    );
  }, 15 * 60_000);
  renew.unref();
  return {
    baseUrl,
    seed,
    database,
    headers,
    close: async () => {
      clearInterval(renew);
      await app.close();
      if (kind === 'postgres' && kept === undefined) {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
        // The forecast job queue's tables, beside the bench's schema.
        await sql`drop schema if exists ${sql.id(ForecastQueue.schemaFor(schema))} cascade`.execute(
          database.db,
        );
      }
      await database.close();
    },
  };
}

/**
 * VACUUM ANALYZE of the bench schema's tables only (a bare one visits every schema of the database),
 * then a checkpoint.
 */
export async function vacuumSchema(database: DatabaseHandle): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select quote_ident(tablename) as name from pg_tables where schemaname = current_schema()`.execute(
    database.db,
  );
  if (rows.length > 0)
    await sql.raw(`vacuum analyze ${rows.map((r) => r.name).join(', ')}`).execute(database.db);
  // What the seed, the vacuum or an earlier size's writes left dirty is flushed now, not by a
  // timed checkpoint in the middle of the figures (a kept 100,000-product schema's vacuum dirties
  // gigabytes; a 5,000-product spread writes some 40 MB of full-page images).
  await sql`checkpoint`.execute(database.db);
}

/** What a kept schema holds; `seconds` is what migrating it took (no seed ran). */
async function keptSummary(
  database: DatabaseHandle,
  seconds: number,
): Promise<SeedSummary & { kept: boolean }> {
  const { rows } = await sql<{ products: number; records: number; history: number }>`
    select (select count(*)::int from products) as products,
      (select count(*)::int from demand_records) as records,
      (select count(*)::int from sales_history) as history`.execute(database.db);
  const counts = rows[0]!;
  return {
    products: counts.products,
    records: counts.records,
    historyRows: counts.history,
    seconds,
    kept: true,
  };
}

/** GET an API path as the bench's admin; the envelope's data. */
export async function getJson<T>(server: BenchServer, path: string): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: server.headers });
  if (!response.ok) throw new Error(`GET ${path} failed: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}
