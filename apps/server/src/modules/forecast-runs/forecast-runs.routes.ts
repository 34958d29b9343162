import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../lib/envelope';
import type { ForecastRunService } from './forecast-run.service';
import { parseInput } from '../../lib/validate';

const ZRunParams = z.object({
  id: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' }),
});
const ZRecentQuery = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(50, { error: 'must be at most 50' })
    .default(5),
});

/** Forecast runs: start one (202, runs in the background), follow its progress, list recent ones. Admins only. */
export function registerForecastRunRoutes(app: FastifyInstance, service: ForecastRunService): void {
  app.post('/api/forecast/runs', async (request, reply) => {
    const run = await service.start(request.access);
    reply.code(202).header('location', `/api/forecast/runs/${run.id}`);
    return ok(run);
  });
  app.get('/api/forecast/runs', async (request) =>
    ok(await service.listRecent(request.access, parseInput(ZRecentQuery, request.query).limit)),
  );
  app.get('/api/forecast/runs/:id', async (request) =>
    ok(await service.get(request.access, parseInput(ZRunParams, request.params).id)),
  );
}
