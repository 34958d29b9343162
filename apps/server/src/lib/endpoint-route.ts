import type { EndpointContract, ResponseData } from '@ps/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { ok, okText } from './envelope';
import { JsonText } from './json-text';
import { parseInput } from './validate';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A request's path parameters, query and body, parsed by its contract's schemas. */
export type EndpointInput<E extends EndpointContract> = {
  params: Parsed<E['params']>;
  query: Parsed<E['query']>;
  body: Parsed<E['body']>;
};

/** Method, path and declared access of a route, taken from its contract so nothing is written twice. */
export function endpointRoute(endpoint: EndpointContract): Pick<RouteOptions, 'method' | 'url' | 'config'> {
  return { method: endpoint.method, url: endpoint.path, config: { access: endpoint.access, endpoint } };
}

/** Parses untrusted input with the contract's schemas; a failure is a 400 naming the field. */
export function endpointInput<E extends EndpointContract>(
  endpoint: E,
  request: FastifyRequest,
): EndpointInput<E> {
  const parse = (schema: z.ZodType | undefined, value: unknown): unknown =>
    schema ? parseInput(schema, value) : undefined;
  return {
    params: parse(endpoint.params, request.params),
    query: parse(endpoint.query, request.query),
    body: parse(endpoint.body, request.body),
  } as EndpointInput<E>;
}

/**
 * Registers a JSON endpoint: parses its input, calls the handler with the caller's verified scope
 * (request.access), and answers the handler's data in the envelope with the contract's status (data
 * handed over as JsonText goes into the envelope as it is).
 */
export function serveEndpoint<E extends EndpointContract>(
  app: FastifyInstance,
  endpoint: E,
  handler: (
    input: EndpointInput<E>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<ResponseData<E> | JsonText<ResponseData<E>>>,
  options: Pick<RouteOptions, 'bodyLimit'> = {},
): void {
  app.route({
    ...endpointRoute(endpoint),
    ...options,
    handler: async (request, reply) => {
      const data = await handler(endpointInput(endpoint, request), request, reply);
      reply.code(endpoint.status ?? 200);
      if (!(data instanceof JsonText)) return ok(data);
      reply.type('application/json; charset=utf-8');
      return okText(data.text);
    },
  });
}
