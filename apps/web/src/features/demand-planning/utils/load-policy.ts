/**
 * How the grid's page requests map the spec's loading rules (§4 "Grid data loading", §8 "Data
 * loading", §9 "Admin context" / "Customer context"). The spec's client downloaded every record in
 * batches of 1000; we page on the server, so one page request plays the part of one batch:
 *
 * - initial: the first page of a visit → overlay 'Loading Initial Data...' / 'Please wait for first batch...'.
 * - loading: any later page (paging, filters, view level, drill-down, Refresh) → 'Loading data...',
 *   while the previous rows stay visible underneath.
 * - a request that fails with 504 or a timeout is retried after 1 s × attempt number: twice in the
 *   admin context, once in the customer context.
 * - timed out with partial data: when the retries run out while earlier rows are still on screen,
 *   those rows stay and the yellow banner says 'Loaded N items (request timed out, showing partial data)'.
 * - failed: otherwise the red, dismissible banner shows 'Request timed out', the server's message,
 *   or 'Failed to load data'.
 * - customer context: if the first page has not arrived within 1 s, the grid shows empty with
 *   'No data available' while its one retry runs; rows appear if the retry brings them.
 */
export type ClientContext = 'admin' | 'circor';

export type LoadPolicy = {
  /** Retries after the first attempt, for timeouts only. */
  timeoutRetries: number;
  /** Abort a request after this long (the spec's debug text: 30 s). */
  requestTimeoutMs: number;
  /** Customer context: give up waiting for the first page after this long and show 'No data available'. */
  firstPageDeadlineMs: number | null;
};

export function loadPolicyFor(context: ClientContext): LoadPolicy {
  return context === 'circor'
    ? { timeoutRetries: 1, requestTimeoutMs: 30_000, firstPageDeadlineMs: 1_000 }
    : { timeoutRetries: 2, requestTimeoutMs: 30_000, firstPageDeadlineMs: null };
}

/** Wait before retry number `attempt` (1-based): 1 s × attempt. */
export function retryDelayMs(attempt: number): number {
  return 1_000 * attempt;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return '';
}

/** Gateway timeouts and aborted-by-timeout requests are worth retrying; other failures are not. */
export function isTimeoutError(error: unknown): boolean {
  if (error instanceof DOMException && error.name === 'TimeoutError') return true;
  const message = messageOf(error);
  return message.includes('504') || /time(d)?\s?out/i.test(message);
}

export type Sleep = (ms: number) => Promise<void>;

export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `load`, retrying timeouts per the policy; any other error, or the last timeout, is thrown. */
export async function loadWithRetries<T>(
  load: (attempt: number) => Promise<T>,
  policy: Pick<LoadPolicy, 'timeoutRetries'>,
  wait: Sleep = sleep,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load(attempt);
    } catch (error) {
      if (attempt >= policy.timeoutRetries || !isTimeoutError(error)) throw error;
      await wait(retryDelayMs(attempt + 1));
    }
  }
}

/** What the grid's banner says; the page words it in the user's language. */
export type LoadBanner =
  | { tone: 'info'; kind: 'partial'; rowsShown: number }
  | { tone: 'error'; kind: 'timeout' }
  | { tone: 'error'; kind: 'failed'; error: unknown };

/** The banner for a page request that failed for good, given how many rows are still on screen. */
export function bannerForFailure(error: unknown, rowsShown: number): LoadBanner {
  if (isTimeoutError(error)) {
    return rowsShown > 0 ? { tone: 'info', kind: 'partial', rowsShown } : { tone: 'error', kind: 'timeout' };
  }
  return { tone: 'error', kind: 'failed', error };
}
