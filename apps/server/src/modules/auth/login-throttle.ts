import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { clearSignInFailures, countSignInFailures, recordSignInFailure } from './login-throttle.repository';

/** Failed sign-ins allowed per account within the window before further tries are refused. */
const MAX_FAILURES = 10;
const WINDOW_SECONDS = 5 * 60;
/** What a refused sign-in tells the client to wait (Retry-After): at most one window. */
export const SIGN_IN_RETRY_AFTER_SECONDS = WINDOW_SECONDS;

/**
 * Slows password guessing at the embedded provider: after 10 failures for one email within five
 * minutes, that email is refused until the window passes. The counters are in the database, so
 * every process behind a load balancer counts the same failures.
 */
export function createLoginThrottle(db: Kysely<Database>) {
  return {
    isBlocked: async (email: string) => (await countSignInFailures(db, email)) >= MAX_FAILURES,
    recordFailure: (email: string) => recordSignInFailure(db, email, WINDOW_SECONDS),
    recordSuccess: (email: string) => clearSignInFailures(db, email),
  };
}
