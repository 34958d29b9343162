import { afterEach, describe, expect, it, vi } from 'vitest';

let currentToken = 'token-a';
vi.mock('@/features/auth', () => ({ getDataToken: () => currentToken }));

const { followRecordChanges } = await import('../api/live-updates.api');

/** An event stream that ends at once (the server closed it: its token expired). */
const endedStream = () =>
  new Response(new ReadableStream({ start: (controller) => controller.close() }), { status: 200 });

/** An event stream that stays open until the request is aborted. */
const openStream = (signal: AbortSignal) =>
  new Response(
    new ReadableStream({
      start: (controller) => signal.addEventListener('abort', () => controller.error(new Error('aborted'))),
    }),
    { status: 200 },
  );

describe('the live-updates stream across a token expiry', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reconnects when the server ends it, and after a refusal as soon as the token is renewed', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const answers = [
      () => endedStream(),
      () => new Response('{}', { status: 401 }),
      (signal: AbortSignal) => openStream(signal),
    ];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      sent.push((init.headers as Record<string, string>).Authorization ?? '');
      return Promise.resolve(answers[sent.length - 1]!(init.signal!));
    });
    const stop = new AbortController();
    const onResync = vi.fn();
    const following = followRecordChanges({ onChange: () => undefined, onResync }, stop.signal);

    await vi.advanceTimersByTimeAsync(2_000);
    // The stream ended; the next try with the same (expired) token is refused.
    expect(sent).toEqual(['Bearer token-a', 'Bearer token-a']);
    // The renewal lands: back within one reconnect delay, not the 30 s wait after a refusal.
    currentToken = 'token-b';
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toEqual(['Bearer token-a', 'Bearer token-a', 'Bearer token-b']);
    // Whatever changed while the stream was down is fetched again.
    expect(onResync).toHaveBeenCalledTimes(1);

    stop.abort();
    await vi.runAllTimersAsync();
    await following;
  });
});
