import { successEnvelopeOf, ZFailureEnvelope, type EndpointContract } from '@ps/domain';
import { z } from 'zod';
import { APP_VERSION } from '../../lib/version';

type JsonSchema = Record<string, unknown>;

/** A schema as JSON Schema (2020-12, which OpenAPI 3.1 uses), without the `$schema` line. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema form; the shapes around them still do.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** `/api/x/:id` as OpenAPI writes it: `/api/x/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

export type OpenApiParameter = {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
};

type MediaTypes = Record<string, { schema?: JsonSchema }>;
export type OpenApiResponse = {
  description: string;
  content?: MediaTypes;
  headers?: Record<string, unknown>;
};

export type OpenApiOperation = {
  summary: string;
  'x-access': EndpointContract['access'];
  security: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: true; content: MediaTypes };
  responses: Record<string, OpenApiResponse>;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  components: Record<string, Record<string, unknown>>;
  paths: Record<string, Record<string, OpenApiOperation>>;
};

function parametersOf(endpoint: EndpointContract): OpenApiParameter[] {
  const of = (where: 'path' | 'query', shape: z.ZodObject | undefined) =>
    Object.entries(shape?.shape ?? {}).map(([name, field]: [string, z.ZodType]) => ({
      name,
      in: where,
      // A field that accepts nothing (optional, or with a default) may be left out.
      required: where === 'path' || !field.safeParse(undefined).success,
      schema: jsonSchemaOf(field, 'input'),
    }));
  return [...of('path', endpoint.params), ...of('query', endpoint.query)];
}

const failure = (description: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

function successOf(endpoint: EndpointContract): OpenApiResponse {
  const { response } = endpoint;
  if ('data' in response) {
    return {
      description: 'Success: the data in the envelope',
      content: { 'application/json': { schema: jsonSchemaOf(successEnvelopeOf(response.data), 'output') } },
    };
  }
  if ('mediaType' in response) return { description: 'Success', content: { [response.mediaType]: {} } };
  return { description: 'Redirect', headers: { location: { schema: { type: 'string' } } } };
}

function responsesOf(endpoint: EndpointContract): Record<string, OpenApiResponse> {
  const takesInput = Boolean(endpoint.params ?? endpoint.query ?? endpoint.body);
  const isPublic = endpoint.access === 'public';
  return {
    [String(endpoint.status ?? 200)]: successOf(endpoint),
    ...(takesInput ? { 400: failure('Invalid input: the message names the field') } : {}),
    ...(isPublic ? {} : { 401: failure('No token, or a token that does not verify') }),
    ...(isPublic ? {} : { 403: failure('Insufficient permissions for this operation') }),
  };
}

function operationOf(endpoint: EndpointContract): OpenApiOperation {
  return {
    summary: endpoint.summary,
    'x-access': endpoint.access,
    security: endpoint.access === 'public' ? [] : [{ bearer: [] }],
    parameters: parametersOf(endpoint),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(endpoint.body, 'input') } },
          },
        }
      : {}),
    responses: responsesOf(endpoint),
  };
}

/** The API as an OpenAPI 3.1 document, generated from the endpoint contracts. */
export function openApiDocument(endpoints: readonly EndpointContract[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of endpoints) {
    const path = (paths[openApiPath(endpoint.path)] ??= {});
    path[endpoint.method.toLowerCase()] = operationOf(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Planning Suite API',
      version: APP_VERSION,
      description:
        'Every success is {success: true, data, error: null}; every refusal {success: false, data: null, error, message, code}.',
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The ID token from sign-in',
        },
      },
      schemas: { Failure: jsonSchemaOf(ZFailureEnvelope, 'output') },
    },
    paths,
  };
}
