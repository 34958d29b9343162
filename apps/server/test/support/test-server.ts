import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database';
import { developmentAuthenticator } from '../../src/plugins/development-authenticator';
import { seedDemoData } from '../../src/seed/seed-demo-data';
import { TEST_POSTGRES_URL, type Backend } from './backends';

/** A fixed "current week" so that test data is identical on every run. */
export const TEST_ANCHOR = new Date('2026-11-15T00:00:00Z');

export type TestServer = {
  baseUrl: string;
  app: FastifyInstance;
  database: DatabaseHandle;
  request: <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; body: T }>;
  close: () => Promise<void>;
};

/**
 * Starts the real server on a free port over a fresh database: an in-memory PGlite, or a schema
 * of its own in the local PostgreSQL (dropped on close), seeded with a small demo data set.
 */
export async function startTestServer(
  backend: Backend,
  seed: { products: number; weeks: number } = { products: 40, weeks: 12 },
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
  const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent' });
  const app = await buildApp({ config, database, authenticate: developmentAuthenticator });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;

  const request = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };

  return {
    baseUrl,
    app,
    database,
    request,
    close: async () => {
      await app.close();
      if (backend === 'postgres') {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
      }
      await database.close();
    },
  };
}
