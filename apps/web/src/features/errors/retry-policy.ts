/**
 * Spec §4 error boundary: a 'map is not a function' error (data of an unexpected shape, usually a
 * stale cache) clears the cache and retries on its own after 1 second.
 */
export const AUTO_RETRY_DELAY_MS = 1000;

export function isAutoRetriedError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return message.includes('map is not a function');
}
