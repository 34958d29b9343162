import {
  type CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from '../db/schema';

/**
 * A Kysely that runs nothing: each statement is compiled exactly as on PostgreSQL and written
 * down, and answers no rows. Lets a generator read a repository's SQL by calling it.
 */
export function recordingDatabase(): { db: Kysely<Database>; take: () => string[] } {
  let statements: string[] = [];
  const connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      statements.push(query.sql);
      return Promise.resolve({ rows: [] });
    },
    // eslint-disable-next-line require-yield -- a stream that yields nothing, as the query answers no rows
    streamQuery: async function* <R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
      statements.push(query.sql);
    },
  };
  const driver: Driver = {
    init: () => Promise.resolve(),
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: () => Promise.resolve(),
    commitTransaction: () => Promise.resolve(),
    rollbackTransaction: () => Promise.resolve(),
    releaseConnection: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  };
  const dialect: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  return {
    db: new Kysely<Database>({ dialect }),
    take: () => {
      const taken = statements;
      statements = [];
      return taken;
    },
  };
}
