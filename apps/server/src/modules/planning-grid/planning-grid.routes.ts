import { ZFilterOptionsQuerySchema, ZGridQuerySchema, ZRollupQuerySchema } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../lib/envelope';
import type { PlanningGridService } from './planning-grid.service';
import { parseInput } from '../../lib/validate';

/** The planning grid's server-side calls (contract in packages/domain/src/planning-grid.ts). */
export function registerPlanningGridRoutes(app: FastifyInstance, service: PlanningGridService): void {
  app.get('/api/demand-planning/grid', async (request) =>
    ok(await service.page(request.access, parseInput(ZGridQuerySchema, request.query))),
  );

  app.get('/api/demand-planning/filter-options', async (request) =>
    ok(await service.filterOptions(request.access, parseInput(ZFilterOptionsQuerySchema, request.query))),
  );

  // Spec §7: 'data array with id or name and sku'; the view level defaults to category.
  for (const path of ['/api/demand-planning-rollup', '/api/demand-planning-rollup/:viewLevel']) {
    app.get(path, async (request) =>
      ok(
        await service.rollup(
          request.access,
          parseInput(ZRollupQuerySchema, { ...(request.query as object), ...(request.params as object) }),
        ),
      ),
    );
  }
}
