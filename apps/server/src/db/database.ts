import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations';
import { PGliteDialect } from './pglite-dialect';
import { preparedReadsOn } from './prepared-reads';
import type { Database } from './schema';

export type DatabaseKind = 'pglite' | 'postgres';

/** Stops a LISTEN started by DatabaseHandle.listen. */
export type StopListening = () => Promise<void>;

export type DatabaseHandle = {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * LISTENs on a channel and hands each NOTIFY payload over. PostgreSQL: one connection of its
   * own outside the pool, reconnected after a failure (NOTIFYs sent while it was down are lost, so
   * `onReconnect` lets the caller tell its clients to refetch). PGlite: the engine's own listener.
   */
  listen: (
    channel: string,
    onPayload: (payload: string) => void,
    onReconnect?: () => void,
  ) => Promise<StopListening>;
  close: () => Promise<void>;
};

/** Limits every pooled PostgreSQL connection applies to its statements (DB_*_TIMEOUT_MS). */
export type DatabaseTimeouts = { statementMs: number; lockMs: number };

export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { statementMs: 30_000, lockMs: 10_000 };

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      /** Isolates a test run in its own schema. */ schema?: string;
      poolSize?: number;
      timeouts?: DatabaseTimeouts;
      /** Further session settings for every connection, e.g. `{ jit_above_cost: '0' }` in a bench. */
      settings?: Record<string, string>;
    }
  | { kind: 'pglite'; /** Folder to persist in; omit for an in-memory database. */ dataDir?: string };

/** How long a lost LISTEN connection waits before it reconnects. */
const RELISTEN_DELAY_MS = 1_000;

function listenOnPostgres(options: Extract<DatabaseOptions, { kind: 'postgres' }>): DatabaseHandle['listen'] {
  return async (channel, onPayload, onReconnect) => {
    let client: pg.Client | null = null;
    let isStopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (isReconnect: boolean): Promise<void> => {
      const next = new pg.Client({ connectionString: options.url });
      next.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
      });
      next.on('error', () => {
        void next.end().catch(() => undefined);
        if (client === next) client = null;
        if (!isStopped) retry = setTimeout(() => void reconnect(), RELISTEN_DELAY_MS);
      });
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      client = next;
      if (isReconnect) onReconnect?.();
    };
    const reconnect = async () => {
      try {
        await connect(true);
      } catch {
        if (!isStopped) retry = setTimeout(() => void reconnect(), RELISTEN_DELAY_MS);
      }
    };
    await connect(false);
    return async () => {
      isStopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  };
}

const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082 } as const;

/** Same value shapes from both engines: numbers for NUMERIC/INT8, yyyy-mm-dd strings for DATE. */
const parseNumber = (value: string): number => Number(value);
const keepText = (value: string): string => value;

function openPostgres(options: Extract<DatabaseOptions, { kind: 'postgres' }>): DatabaseHandle {
  const typeParsers: Record<number, (value: string) => unknown> = {
    [OID.INT8]: parseNumber,
    [OID.NUMERIC]: parseNumber,
    [OID.DATE]: keepText,
  };
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Sent as session settings when a connection opens: a runaway statement, a lock wait or a
    // transaction left open by a stuck request ends with an error instead of holding locks and
    // pool connections for minutes. A request that waits for a free connection gives up too.
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: timeouts.statementMs,
    connectionTimeoutMillis: timeouts.statementMs,
    options: Object.entries({
      ...(options.schema ? { search_path: options.schema } : {}),
      ...options.settings,
    })
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' '),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
        typeParsers[oid] ??
        (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
    },
  });
  preparedReadsOn(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', listen: listenOnPostgres(options), close: () => db.destroy() };
}

function openPglite(options: Extract<DatabaseOptions, { kind: 'pglite' }>): DatabaseHandle {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    parsers: {
      [pgliteTypes.INT8]: parseNumber,
      [pgliteTypes.NUMERIC]: parseNumber,
      [pgliteTypes.DATE]: keepText,
    },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  const listen: DatabaseHandle['listen'] = async (channel, onPayload) => {
    const stop = await pglite.listen(channel, onPayload);
    return () => stop();
  };
  return { db, kind: 'pglite', listen, close: () => db.destroy() };
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  return options.kind === 'postgres' ? openPostgres(options) : openPglite(options);
}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in any schema unless told which; another schema's
  // copies (parallel test schemas, other apps) would make it skip creating ours.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    migrationTableSchema: rows[0]?.schema ?? 'public',
    // Modules land in parallel with numbers reserved ahead (0010–0017), so a database may already
    // hold a higher number when a lower one arrives; each migration touches only its own tables.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function isDatabaseReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
