import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Settings of a transaction that writes demand records, for its own statements and for those its
 * triggers run (the roll-up, live-update and accuracy triggers plan theirs inside it):
 * - `jit = off`: JIT pays only for long analytic scans. A save's statements run for milliseconds,
 *   but a server whose thresholds a cost estimate crosses (or a configuration that lowers them)
 *   compiled each of them, the roll-up trigger's for seconds, and a save became many times slower.
 * - `work_mem = 16MB`: the roll-up trigger aggregates a 5,000-record batch's pairs (about 60 sums
 *   per slice-week) in one hash; at the default 4 MB it spilled to disk.
 * Both are SET LOCAL: they end with the transaction, so the pooled connection goes back with the
 * server's settings. A utility statement, not `select set_config(…)`: a SELECT is planned with the
 * connection's JIT still on, and with every threshold at 0 compiling it costs more than the save.
 */
export async function applyWriteSettings(trx: Transaction<Database>): Promise<void> {
  await sql`set local jit = off`.execute(trx);
  await sql`set local work_mem = '16MB'`.execute(trx);
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

/**
 * A read that probes an index per key (thousands of keys from a save) in a transaction without
 * JIT: its cost estimate grows with the keys and crosses the JIT thresholds, and compiling it
 * costs far more than running it.
 */
export function readWithoutJit<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return work(trx);
  });
}
