import { describe, expect, it } from 'vitest';
import {
  bannerForFailure,
  isTimeoutError,
  loadPolicyFor,
  loadWithRetries,
  retryDelayMs,
} from '../utils/load-policy';

describe('isTimeoutError', () => {
  it('recognises 504s, timeout messages and aborted-by-timeout requests', () => {
    expect(isTimeoutError(new Error('HTTP 504: Gateway Timeout'))).toBe(true);
    expect(isTimeoutError(new Error('Request timed out'))).toBe(true);
    expect(isTimeoutError(new Error('socket timeout'))).toBe(true);
    expect(isTimeoutError(new DOMException('signal timed out', 'TimeoutError'))).toBe(true);
  });
  it('does not retry other failures', () => {
    expect(isTimeoutError(new Error('Insufficient permissions'))).toBe(false);
    expect(isTimeoutError(new Error('HTTP 500: Internal Server Error'))).toBe(false);
  });
});

describe('loadWithRetries', () => {
  it('retries timeouts after 1 s × attempt, twice in the admin context', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await loadWithRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('HTTP 504: Gateway Timeout');
        return 'page';
      },
      loadPolicyFor('admin'),
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(result).toBe('page');
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after one retry in the customer context', async () => {
    let calls = 0;
    await expect(
      loadWithRetries(
        async () => {
          calls += 1;
          throw new Error('timeout');
        },
        loadPolicyFor('circor'),
        async () => undefined,
      ),
    ).rejects.toThrow('timeout');
    expect(calls).toBe(2);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    await expect(
      loadWithRetries(
        async () => {
          calls += 1;
          throw new Error('Insufficient permissions');
        },
        loadPolicyFor('admin'),
        async () => undefined,
      ),
    ).rejects.toThrow('Insufficient permissions');
    expect(calls).toBe(1);
  });

  it('uses 1 s per attempt', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([1000, 2000, 3000]);
  });
});

describe('bannerForFailure', () => {
  it('keeps rows on screen after a timeout and says so in the yellow banner', () => {
    expect(bannerForFailure(new Error('HTTP 504'), 100)).toEqual({
      tone: 'info',
      kind: 'partial',
      rowsShown: 100,
    });
  });
  it("says 'Request timed out' when a timeout leaves nothing to show", () => {
    expect(bannerForFailure(new Error('timeout'), 0)).toEqual({ tone: 'error', kind: 'timeout' });
  });
  it('keeps any other error for the page to word', () => {
    const refused = new Error('Insufficient permissions');
    expect(bannerForFailure(refused, 10)).toEqual({ tone: 'error', kind: 'failed', error: refused });
  });
  it('gives the customer context a 1 s first-page deadline and admins none', () => {
    expect(loadPolicyFor('circor').firstPageDeadlineMs).toBe(1000);
    expect(loadPolicyFor('admin').firstPageDeadlineMs).toBeNull();
  });
});
