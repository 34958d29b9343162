import { aiAssistantEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { AiAssistantService } from './ai-assistant.service';

/** AI assistant: chat and help for any signed-in user (own clients), the confirmed what-if save for writers. */
export function registerAiAssistantRoutes(app: FastifyInstance, service: AiAssistantService): void {
  serveEndpoint(app, endpoints.chat, ({ body }, request) => service.chat(request.access, body));
  serveEndpoint(app, endpoints.help, ({ body }, request) => service.help(request.access, body));
  serveEndpoint(app, endpoints.saveScenario, ({ body }, request) =>
    service.saveScenario(request.access, body),
  );
}
