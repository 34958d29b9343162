import { PassThrough } from 'node:stream';
import { LIVE_EVENT, liveUpdateEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { narrowToContext } from '../../lib/access';
import { endpointInput, endpointRoute } from '../../lib/endpoint-route';
import type { RecordChangeHub } from './record-change-hub';

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;
/** How long a browser waits before reconnecting a dropped stream (the SSE retry field). */
const RETRY_MS = 2_000;

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** setTimeout's longest delay (about 24.8 days); a token that lives longer is checked again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `end` when the caller's token expires: the stream was authorised once, when it opened, so
 * it must not outlive the token (a signed-out or revoked user's stream would otherwise run on).
 * The browser reconnects with its renewed token. Returns the cancel.
 */
function endAtTokenExpiry(expiresAt: number | undefined, end: () => void): () => void {
  if (expiresAt === undefined) return () => undefined;
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = expiresAt - Date.now();
    timer =
      left <= 0
        ? setTimeout(end, 0)
        : setTimeout(left > LONGEST_TIMER_MS ? arm : end, Math.min(left, LONGEST_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * GET /api/demand-planning/events: server-sent events of committed record writes, only for the
 * clients the caller may see, until the caller's token expires. The stream is the route's reply
 * body, so the security headers and the access check apply as to any other route.
 */
export function registerLiveUpdateRoutes(app: FastifyInstance, hub: RecordChangeHub): void {
  const open = new Set<PassThrough>();
  // app.close() waits for open requests; a stream never ends by itself.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
    await hub.close();
  });

  app.route({
    ...endpointRoute(endpoints.events),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.events, request);
      const scope = narrowToContext(request.access, query.clientContext);
      const out = new PassThrough();
      open.add(out);
      out.write(`retry: ${RETRY_MS}\n: connected\n\n`);
      const unsubscribe = hub.subscribe((message) => {
        if (message === null) out.write(frame(LIVE_EVENT.resync, {}));
        else if (scope.clientIds.includes(message.clientId))
          out.write(frame(LIVE_EVENT.change, message.event));
      });
      const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const cancelExpiry = endAtTokenExpiry(request.access.tokenExpiresAt, () => out.end());
      const finish = () => {
        clearInterval(keepAlive);
        cancelExpiry();
        unsubscribe();
        open.delete(out);
        out.end();
      };
      request.raw.once('close', finish);
      out.once('close', finish);
      return reply
        .type('text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(out);
    },
  });
}
