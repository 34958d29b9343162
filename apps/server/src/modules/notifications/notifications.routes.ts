import { notificationEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { NotificationService } from './notifications.service';

export function registerNotificationRoutes(app: FastifyInstance, service: NotificationService): void {
  serveEndpoint(app, endpoints.list, (_input, request) => service.list(request.access));
  serveEndpoint(app, endpoints.markRead, ({ body }, request) => service.markRead(request.access, body.ids));
}
