import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Advisory-lock classes of background jobs whose row is committed 'running' before their
 * transaction starts (forecast runs use 7301, solves 7302). `importTurn` is one key that imports
 * hold in turn while they write, so two imports never interleave their slices.
 */
export const JOB_LOCK_CLASS = { import: 7_303, dataLoad: 7_304, importTurn: 7_305 } as const;
type JobLockClass = (typeof JOB_LOCK_CLASS)[keyof typeof JOB_LOCK_CLASS];

/** The lock's key: the job's id within its schema (test schemas share one database's locks). */
const lockKey = (id: unknown) => sql<number>`hashtext(current_schema() || '/' || ${id}::text)`;

/**
 * Marks the job as its transaction's (PostgreSQL): the lock ends with the transaction or with the
 * process, which is how another process tells an interrupted job from a running one.
 */
export async function lockJob(
  trx: Transaction<Database>,
  lockClass: JobLockClass,
  id: number,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(${lockClass}, ${lockKey(id)})`.execute(trx);
}

/**
 * A condition true for a job row whose lock no live transaction holds. It takes the lock itself,
 * so it belongs in a transaction of its own, which lets the locks go when it ends.
 */
export const jobLockFree = (lockClass: JobLockClass, idColumn = 'id') =>
  sql<boolean>`pg_try_advisory_xact_lock(${lockClass}, ${lockKey(sql.ref(idColumn))})`;

/** A job's row is committed a moment before its transaction takes the lock: it is not orphaned yet. */
export const ORPHAN_GRACE = sql<Date>`now() - interval '10 seconds'`;

/** How often a job waiting for its turn tries the lock again. */
const TURN_POLL_MS = 200;

/**
 * Holds (class, id) for the session (PostgreSQL), for a job that commits in several transactions:
 * `connection` must be the one connection the job runs on, and keeps the lock between its
 * transactions until releaseJob, or until the session ends with the process. Waits while another
 * session holds it, by trying again rather than by a lock wait, which the pool's lock timeout
 * would end.
 */
export async function holdJob(
  connection: Kysely<Database>,
  lockClass: JobLockClass,
  id: number | string,
): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ held: boolean }>`
      select pg_try_advisory_lock(${lockClass}, ${lockKey(id)}) as held`.execute(connection);
    if (rows[0]!.held) return;
    await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
  }
}

/** Lets go of a lock holdJob took, on the same connection. */
export async function releaseJob(
  connection: Kysely<Database>,
  lockClass: JobLockClass,
  id: number | string,
): Promise<void> {
  await sql`select pg_advisory_unlock(${lockClass}, ${lockKey(id)})`.execute(connection);
}
