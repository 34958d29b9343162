import pg from 'pg';

/** The local PostgreSQL the API tests also run against when it is reachable (CI machines have it). */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function isPostgresReachable(url = TEST_POSTGRES_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when reachable, so every API test runs on both engines. */
export const backends: Backend[] = (await isPostgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];
