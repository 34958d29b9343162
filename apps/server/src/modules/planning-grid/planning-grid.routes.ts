import { planningGridEndpoints as endpoints, spreadingEndpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { PlanningGridService } from './planning-grid.service';
import type { TimePhasedService } from './time-phased.service';

/** The planning grid's server-side calls (contract in packages/domain/src/api/planning-grid.contract.ts). */
export function registerPlanningGridRoutes(
  app: FastifyInstance,
  service: PlanningGridService,
  timePhased: TimePhasedService,
): void {
  serveEndpoint(app, endpoints.grid, ({ query }, request) => service.page(request.access, query));

  serveEndpoint(app, endpoints.gridNotes, ({ query, body }, request) =>
    service.notes(request.access, query, body.cells),
  );

  serveEndpoint(app, endpoints.filterOptions, ({ query }, request) =>
    service.filterOptions(request.access, query),
  );

  // Spec §7: 'data array with id or name and sku'; the view level defaults to category.
  serveEndpoint(app, endpoints.rollup, ({ query }, request) => service.rollup(request.access, query));
  serveEndpoint(app, endpoints.rollupAtLevel, ({ query, params }, request) =>
    service.rollup(request.access, { ...query, ...params }),
  );

  // The time-phased planning view.
  serveEndpoint(app, spreadingEndpoints.timePhased, ({ query }, request) =>
    timePhased.page(request.access, query),
  );
}
