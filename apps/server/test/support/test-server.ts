import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app';
import { createAuthSetup } from '../../src/modules/auth/auth-setup';
import { DEMO_USERS } from '../../src/modules/auth/demo-users';
import { loadConfig } from '../../src/config';
import { MovableClock } from '../../src/lib/clock';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database';
import { seedDemoData } from '../../src/seed/seed-demo-data';
import { ForecastQueue } from '../../src/modules/forecast-runs/forecast-queue';
import { TEST_POSTGRES_URL, type Backend } from './backends';
import { signInOverHttp, type TokenSet } from './sign-in';
import { freePort } from './free-port';

/** A fixed "current week" so that test data is identical on every run. */
export const TEST_ANCHOR = new Date('2026-11-15T00:00:00Z');

/** Who a test request comes from: a demo user of the embedded provider, or nobody. */
export type Caller = 'admin' | 'circor' | 'nogroup' | 'anonymous';

export type RequestOptions = {
  /** Signs the request with this demo user's ID token (default admin). */
  as?: Caller;
  /** Sends exactly this bearer token instead (forged, expired, … tokens). */
  token?: string;
};

export type TestServer = {
  baseUrl: string;
  app: FastifyInstance;
  /** Every route the app registered, in order. */
  routes: RouteOptions[];
  database: DatabaseHandle;
  /**
   * The server's clock: real time until a test moves it (setToday, advanceWeeks). The server never
   * offers a way to move it over HTTP.
   */
  clock: MovableClock;
  /** The embedded provider's signing keys file (private JWKs), for tests that mint their own tokens. */
  keysFile: string;
  request: <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ) => Promise<{ status: number; body: T }>;
  /** Real tokens of a demo user, obtained once through the authorization-code + PKCE flow. */
  tokensFor: (caller: Exclude<Caller, 'anonymous'>) => Promise<TokenSet>;
  close: () => Promise<void>;
};

const CALLER_EMAILS: Record<Exclude<Caller, 'anonymous'>, string> = {
  admin: 'admin@demo.local',
  circor: 'circor@demo.local',
  nogroup: 'viewer@demo.local',
};

/**
 * Starts the real server on a free port over a fresh database: an in-memory PGlite, or a schema
 * of its own in the local PostgreSQL (dropped on close), seeded with a small demo data set.
 */
export async function startTestServer(
  backend: Backend,
  seed: { products: number; weeks: number; futureWeeks?: number } = { products: 40, weeks: 12 },
  options: { webDistDir?: string; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  let database: DatabaseHandle;
  if (backend === 'postgres') {
    const admin = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    database = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, schema, poolSize: 5 });
  } else {
    database = openDatabase({ kind: 'pglite' });
  }
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { ...seed, anchor: TEST_ANCHOR });
  // The issuer names the port, so it is chosen before the app is built.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const keysDir = mkdtempSync(join(tmpdir(), 'ps-test-keys-'));
  const keysFile = join(keysDir, 'oidc-signing-keys.json');
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: options.webDistDir ?? '/nonexistent',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    // Tests roll the horizon when they move the clock, not whenever a server starts.
    HORIZON_ROLL_IN_SERVER: 'false',
    ...options.env,
  });
  const auth = await createAuthSetup(config, { keysFile });
  const routes: RouteOptions[] = [];
  const clock = new MovableClock();
  const app = await buildApp({
    config,
    database,
    auth,
    clock,
    checkResponses: true,
    onRoute: (route) => routes.push(route),
  });
  await app.listen({ port, host: '127.0.0.1' });

  const tokens = new Map<string, Promise<TokenSet>>();
  const tokensFor = (caller: Exclude<Caller, 'anonymous'>) => {
    let pending = tokens.get(caller);
    if (!pending) {
      const email = CALLER_EMAILS[caller];
      const password = DEMO_USERS.find((user) => user.email === email)!.password;
      pending = signInOverHttp(baseUrl, { email, password });
      tokens.set(caller, pending);
    }
    return pending;
  };

  const request = async <T>(method: string, path: string, body?: unknown, options: RequestOptions = {}) => {
    const caller = options.as ?? 'admin';
    const token = options.token ?? (caller === 'anonymous' ? undefined : (await tokensFor(caller)).id_token);
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };

  return {
    baseUrl,
    app,
    routes,
    database,
    clock,
    keysFile,
    request,
    tokensFor,
    close: async () => {
      await app.close();
      rmSync(keysDir, { recursive: true, force: true });
      if (backend === 'postgres') {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
        // The forecast job queue's tables, beside the test's schema.
        await sql`drop schema if exists ${sql.id(ForecastQueue.schemaFor(schema))} cascade`.execute(
          database.db,
        );
      }
      await database.close();
    },
  };
}
