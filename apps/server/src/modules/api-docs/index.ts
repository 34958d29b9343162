import type { ServerModule } from '../../lib/server-module';
import { registerApiDocsRoutes } from './api-docs.routes';

/** The API described: an OpenAPI document and a browsable page, both generated from the contracts. */
export const apiDocsModule: ServerModule = {
  name: 'api-docs',
  register: (app) => registerApiDocsRoutes(app),
};
