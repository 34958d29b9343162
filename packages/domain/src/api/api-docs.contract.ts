import { defineEndpoint } from './endpoint';

/** The API's own description: the OpenAPI document and a page to browse it. */
export const apiDocsEndpoints = {
  openApi: defineEndpoint({
    method: 'GET',
    path: '/api/openapi.json',
    access: 'public',
    summary: 'This API as an OpenAPI 3.1 document',
    response: { mediaType: 'application/json' },
  }),
  page: defineEndpoint({
    method: 'GET',
    path: '/api/docs',
    access: 'public',
    summary: 'This API as a page: every operation with its parameters and schemas',
    response: { mediaType: 'text/html' },
  }),
  stylesheet: defineEndpoint({
    method: 'GET',
    path: '/api/docs/docs.css',
    access: 'public',
    summary: 'The stylesheet of the API page',
    response: { mediaType: 'text/css' },
  }),
};
