import {
  eventStreamParser,
  LIVE_EVENT,
  liveUpdateEndpoints,
  ZRecordChangeEvent,
  type RecordChangeEvent,
} from '@ps/domain';
import { getDataToken } from '@/features/auth';

/** After the stream drops, wait this long before reconnecting (longer after a refusal). */
const RECONNECT_MS = 2_000;
const REFUSED_RETRY_MS = 30_000;

export type RecordChangeHandlers = {
  onChange: (change: RecordChangeEvent) => void;
  /** Events may have been missed (the stream was down, or the server's LISTEN reconnected). */
  onResync: () => void;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * After a refusal: back soon once the sign-in has a new token (the silent renewal that follows an
 * expiry), else after the long wait. The server ends a stream when its token expires, and the
 * renewal may land a moment later.
 */
async function waitForNewToken(refused: string | null, signal: AbortSignal): Promise<void> {
  for (let waited = 0; waited < REFUSED_RETRY_MS && !signal.aborted; waited += RECONNECT_MS) {
    await sleep(RECONNECT_MS, signal);
    if (getDataToken() !== refused) return;
  }
}

/**
 * Follows GET /api/demand-planning/events until `signal` aborts, reconnecting when it drops (with
 * the sign-in's current token: the server ends a stream when the token it opened with expires).
 * fetch, not EventSource: the stream needs the bearer token in a header, never in the URL.
 */
export async function followRecordChanges(
  handlers: RecordChangeHandlers,
  signal: AbortSignal,
): Promise<void> {
  let hasConnected = false;
  while (!signal.aborted) {
    let isRefused = false;
    const token = getDataToken();
    try {
      const response = await fetch(liveUpdateEndpoints.events.path, {
        headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        credentials: 'omit',
        signal,
      });
      if (!response.ok || !response.body) {
        isRefused = true;
      } else {
        // Whatever changed while the stream was down is fetched once it is back.
        if (hasConnected) handlers.onResync();
        hasConnected = true;
        const feed = eventStreamParser((name, data) => {
          if (name === LIVE_EVENT.resync) handlers.onResync();
          if (name !== LIVE_EVENT.change) return;
          const change = ZRecordChangeEvent.safeParse(JSON.parse(data));
          if (change.success) handlers.onChange(change.data);
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) feed(read.value);
      }
    } catch {
      // dropped or aborted: reconnect below unless aborted
    }
    // A stream the server ended (its token expired) reconnects with the renewed token.
    if (isRefused) await waitForNewToken(token, signal);
    else await sleep(RECONNECT_MS, signal);
  }
}
