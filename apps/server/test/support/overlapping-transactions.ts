import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../src/db/schema';

type Write = (trx: Transaction<Database>) => Promise<unknown>;

/**
 * Two transactions at once: `first` writes and stays open; `second` starts then and is given
 * 200 ms to reach whatever it waits for of the first's (a row or an advisory lock) before the first
 * commits. Resolves once both have committed.
 */
export async function overlapTransactions(db: Kysely<Database>, first: Write, second: Write): Promise<void> {
  let releaseFirst!: () => void;
  const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
  let firstWrote!: () => void;
  const firstWritten = new Promise<void>((resolve) => (firstWrote = resolve));
  const firstDone = db.transaction().execute(async (trx) => {
    await first(trx);
    firstWrote();
    await firstHolds;
  });
  await firstWritten;
  const secondDone = db.transaction().execute(second);
  await new Promise((resolve) => setTimeout(resolve, 200));
  releaseFirst();
  await Promise.all([firstDone, secondDone]);
}
