import { INT4_MAX, intParam } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../lib/envelope';
import type { ForecastRunService } from './forecast-run.service';
import { parseInput } from '../../lib/validate';

/** Run ids are serial (int4): a larger one names no run and must not reach the query. */
const ZRunParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, { error: 'must be a number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'must be at least 1' })
        .max(INT4_MAX, { error: `must be at most ${INT4_MAX}` }),
    ),
});
const ZRecentQuery = z.object({ limit: intParam({ min: 1, max: 50, default: 5 }) });

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
