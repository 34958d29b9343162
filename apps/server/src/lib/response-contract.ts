import { successEnvelopeOf, ZFailureEnvelope, type EndpointContract } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { failure } from './envelope';

/**
 * The schema a JSON response must match: the failure envelope for refusals, the contract's data in
 * the success envelope otherwise; undefined when a route sends JSON its contract does not describe.
 */
function schemaFor(endpoint: EndpointContract | undefined, status: number): z.ZodType | null | undefined {
  if (status >= 400) return ZFailureEnvelope;
  if (!endpoint) return undefined;
  if ('data' in endpoint.response) return successEnvelopeOf(endpoint.response.data);
  return 'mediaType' in endpoint.response && endpoint.response.mediaType === 'application/json'
    ? null
    : undefined;
}

/** What is wrong with a JSON payload for a schema, in a few lines; null when nothing is. */
function problemWith(schema: z.ZodType | undefined, payload: string): string | null {
  if (!schema) return 'sends JSON that no contract describes';
  const result = schema.safeParse(JSON.parse(payload));
  return result.success ? null : z.prettifyError(result.error).split('\n').slice(0, 6).join('; ');
}

/**
 * For tests: every JSON response is checked against its route's contract before it leaves. A
 * mismatch replaces the response by a 500 naming the route and the first differences, so any API
 * test that meets it fails with the reason.
 */
export function checkResponsesAgainstContracts(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const contentType = String(reply.getHeader('content-type') ?? '');
    if (!contentType.startsWith('application/json') || typeof payload !== 'string') return payload;
    const endpoint = request.routeOptions.config.endpoint;
    const schema = schemaFor(endpoint, reply.statusCode);
    if (schema === null) return payload;
    const where = `${request.method} ${request.routeOptions.url ?? request.url} (${reply.statusCode})`;
    const problem = problemWith(schema, payload);
    if (!problem) return payload;
    request.log.error({ where, problem }, 'response breaks its contract');
    reply.code(500);
    return JSON.stringify(failure('RESPONSE_CONTRACT', `${where} breaks its contract: ${problem}`));
  });
}
