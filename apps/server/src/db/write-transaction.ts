import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Settings of a transaction that writes demand records, for its own statements and for those its
 * triggers run (the roll-up, live-update and accuracy triggers plan theirs inside it):
 * - `jit = off`: JIT pays only for long analytic scans. A save's statements run for milliseconds,
 *   but a server whose thresholds a cost estimate crosses (or a configuration that lowers them)
 *   compiled each of them, the roll-up trigger's for 4–5 s, and a 500-cell save took 8 s.
 * - `work_mem = 16MB`: the roll-up trigger aggregates a 5,000-record batch's pairs (about 60 sums
 *   per slice-week) in one hash; at the default 4 MB it spilled to disk.
 * Both are `set_config(…, true)`: they end with the transaction, so the pooled connection goes back
 * with the server's settings.
 */
export async function applyWriteSettings(trx: Transaction<Database>): Promise<void> {
  await sql`select set_config('jit', 'off', true), set_config('work_mem', '16MB', true)`.execute(trx);
}

/** A transaction with the write settings applied before `work` runs. */
export function writeTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await applyWriteSettings(trx);
    return work(trx);
  });
}
