/** Failed sign-ins allowed per account within the window before further tries are refused. */
const MAX_FAILURES = 10;
const WINDOW_MS = 5 * 60 * 1000;

/**
 * Slows password guessing at the embedded provider: after 10 failures for one email within five
 * minutes, that email is refused until the window passes. In memory: one process, demo use.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  isBlocked(email: string, now = Date.now()): boolean {
    const entry = this.failures.get(email);
    if (!entry || entry.resetAt <= now) return false;
    return entry.count >= MAX_FAILURES;
  }

  recordFailure(email: string, now = Date.now()): void {
    const entry = this.failures.get(email);
    if (!entry || entry.resetAt <= now) {
      this.failures.set(email, { count: 1, resetAt: now + WINDOW_MS });
    } else {
      entry.count += 1;
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(email);
  }
}
