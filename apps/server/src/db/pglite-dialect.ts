import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect for embedded PGlite. PGlite is a single connection, so the driver hands it out
 * to one user at a time: a transaction holds it until commit, and other queries queue behind.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** Marks the work `run` starts (and everything it awaits) as background work for the PGlite queue. */
const backgroundWork = new AsyncLocalStorage<true>();

/**
 * Runs `work` as background work: on PGlite, a request waiting for the connection goes before it
 * (a forecast run's statements let an edit or a progress poll in first). No effect on PostgreSQL.
 */
export function runInBackground<T>(work: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, work);
}

/**
 * Background holders granted the connection after this many requests in a row while they wait:
 * requests go first, but a steady stream of them never stops a run.
 */
const REQUESTS_BEFORE_BACKGROUND = 4;

type Waiter = { grant: () => void; isBackground: boolean };

class PGliteDriver implements Driver {
  private isHeld = false;
  private readonly waiting: Waiter[] = [];
  private requestsInARow = 0;
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const isBackground = backgroundWork.getStore() === true;
    if (this.isHeld || this.waiting.length > 0) {
      await new Promise<void>((grant) => this.waiting.push({ grant, isBackground }));
    }
    this.isHeld = true;
    this.connection.release = () => this.handOver();
    return this.connection;
  }

  /**
   * Gives the connection to the next waiter, requests before background work. PGlite runs each
   * statement on this thread, so nothing else happens while one runs, and a forecast run that
   * issued statement after statement got the connection back through promise callbacks alone,
   * before the event loop ever read a waiting request, so a progress poll waited the whole run. The
   * hand-over therefore waits one event-loop turn, so requests that arrived meanwhile are read
   * and queued before the next holder is chosen.
   */
  private handOver(): void {
    setImmediate(() => {
      const request = this.waiting.findIndex((w) => !w.isBackground);
      const background = this.waiting.findIndex((w) => w.isBackground);
      const isBackgroundsTurn =
        background >= 0 && (request < 0 || this.requestsInARow >= REQUESTS_BEFORE_BACKGROUND);
      const index = isBackgroundsTurn ? background : request;
      if (index < 0) {
        this.isHeld = false;
        return;
      }
      this.requestsInARow = isBackgroundsTurn ? 0 : this.requestsInARow + 1;
      const [next] = this.waiting.splice(index, 1);
      next!.grant();
    });
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }
  async destroy(): Promise<void> {
    await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => undefined;

  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursors; Kysely only calls this for .stream()
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite; page with keyset queries instead.');
  }
}
