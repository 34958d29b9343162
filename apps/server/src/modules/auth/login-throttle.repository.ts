import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Counts one failure for `email`, starting a new window of `windowSeconds` when the last one ended. */
export async function recordSignInFailure(
  db: Kysely<Database>,
  email: string,
  windowSeconds: number,
): Promise<void> {
  const windowEnd = sql<Date>`now() + make_interval(secs => ${windowSeconds})`;
  const windowOver = sql<boolean>`sign_in_failures.window_ends_at <= now()`;
  await db
    .insertInto('sign_in_failures')
    .values({ email, failures: 1, window_ends_at: windowEnd })
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet({
        failures: sql<number>`case when ${windowOver} then 1 else sign_in_failures.failures + 1 end`,
        window_ends_at: sql<Date>`case when ${windowOver} then ${windowEnd} else sign_in_failures.window_ends_at end`,
      }),
    )
    .execute();
}

/** Failures for `email` in its current window (0 when the window has ended). */
export async function countSignInFailures(db: Kysely<Database>, email: string): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select('failures')
    .where('email', '=', email)
    .where('window_ends_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.failures ?? 0;
}

export async function clearSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('email', '=', email).execute();
}
