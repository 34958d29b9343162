import { eventStreamParser } from '@ps/domain';

/** One server-sent event as a test reads it. */
export type StreamEvent = { event: string; data: unknown };

export type EventStreamReader = {
  status: number;
  contentType: string;
  events: StreamEvent[];
  /** Resolves with the first event (already received or later) that matches, or rejects after `ms`. */
  next: (match: (event: StreamEvent) => boolean, ms: number) => Promise<StreamEvent>;
  close: () => void;
};

/** Opens GET `url` as a server-sent event stream with a bearer token (EventSource cannot send one). */
export async function openEventStream(url: string, token: string): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  const feed = eventStreamParser((event, data) => {
    events.push({ event, data: JSON.parse(data) as unknown });
    for (const wake of waiters) wake();
  });
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) feed(read.value);
      } catch {
        // aborted by close()
      }
    })();
  }
  const next = (match: (event: StreamEvent) => boolean, ms: number) =>
    new Promise<StreamEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(match);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`));
      }, ms);
      waiters.add(check);
      check();
    });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    events,
    next,
    close: () => abort.abort(),
  };
}
