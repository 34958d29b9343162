import { Readable } from 'node:stream';
import { aiAssistantEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { endpointInput, endpointRoute, serveEndpoint } from '../../lib/endpoint-route';
import type { AiAssistantService } from './ai-assistant.service';

/** AI assistant: chat and help for any signed-in user (own clients), the confirmed what-if save for writers. */
export function registerAiAssistantRoutes(app: FastifyInstance, service: AiAssistantService): void {
  serveEndpoint(app, endpoints.chat, ({ body }, request) => service.chat(request.access, body));
  app.route({
    ...endpointRoute(endpoints.chatStream),
    handler: async (request, reply) => {
      const { body } = endpointInput(endpoints.chatStream, request);
      // A reader who leaves stops the model call.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const events = await service.chatStream(request.access, body, gone.signal);
      const lines = Readable.from(
        (async function* () {
          for await (const event of events) yield `${JSON.stringify(event)}\n`;
        })(),
      );
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(lines);
    },
  });
  serveEndpoint(app, endpoints.help, ({ body }, request) => service.help(request.access, body));
  serveEndpoint(app, endpoints.saveScenario, ({ body }, request) =>
    service.saveScenario(request.access, body),
  );
}
