import type { z } from 'zod';

/**
 * Who may call an endpoint: anyone; any signed-in user, even in no group (their own account only);
 * any user of a known group; a user who may change records; an admin. The server checks it in one
 * place before the handler (apps/server/src/lib/route-access.ts).
 */
export const ROUTE_ACCESS_LEVELS = ['public', 'account', 'signed-in', 'write', 'admin'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS_LEVELS)[number];

/** An Excel workbook (.xlsx). */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What a success sends: the `data` of the {success, data, error} envelope, a file or page of another
 * media type, or a redirect.
 */
export type EndpointResponse =
  | { data: z.ZodType }
  | {
      mediaType:
        | 'text/csv'
        | 'text/html'
        | 'text/css'
        | 'application/json'
        | 'application/x-ndjson'
        | 'text/event-stream'
        | typeof XLSX_MEDIA_TYPE;
    }
  | { redirect: true };

/**
 * One API endpoint as both sides build against it: the server registers its route from this, the
 * web client is typed from it and the OpenAPI document is generated from it.
 */
export type EndpointContract = {
  method: HttpMethod;
  /** Fastify style: `:name` marks a path parameter. */
  path: string;
  access: RouteAccess;
  summary: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Status of a success; 200 unless stated. */
  status?: number;
  response: EndpointResponse;
};

/** Keeps the literal types of a contract (so `z.infer` reaches the schemas) while checking its shape. */
export const defineEndpoint = <const E extends EndpointContract>(endpoint: E): E => endpoint;

/** The `data` a JSON endpoint answers with. */
export type ResponseData<E extends EndpointContract> = E['response'] extends {
  data: infer S extends z.ZodType;
}
  ? z.infer<S>
  : never;

/** The path parameters a caller passes (before parsing). */
export type ParamsInput<E extends EndpointContract> = E['params'] extends z.ZodObject
  ? z.input<E['params']>
  : Record<string, never>;

/** The body a caller sends (before parsing). */
export type BodyInput<E extends EndpointContract> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : undefined;
