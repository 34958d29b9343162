import { userSettingsEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { UserSettingsService } from './user-settings.service';

/** The caller's own settings; nobody reads or writes another user's. */
export function registerUserSettingsRoutes(app: FastifyInstance, service: UserSettingsService): void {
  serveEndpoint(app, endpoints.read, (_input, request) => service.read(request.access));
  serveEndpoint(app, endpoints.save, ({ body }, request) => service.save(request.access, body));
}
