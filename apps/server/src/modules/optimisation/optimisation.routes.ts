import { optimisationEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { NetworkService } from './network.service';
import type { OptimisationRunService } from './optimisation-run.service';

/** Network optimisation: the network and its edits, scenarios, solve runs and their comparison. Admins only. */
export function registerOptimisationRoutes(
  app: FastifyInstance,
  network: NetworkService,
  runs: OptimisationRunService,
): void {
  serveEndpoint(app, endpoints.network, () => network.network());
  serveEndpoint(app, endpoints.updatePlant, ({ params, body }, request) =>
    network.updatePlant(request.access, params.id, body.families),
  );
  serveEndpoint(app, endpoints.updateDc, ({ params, body }, request) =>
    network.updateDc(request.access, params.id, body),
  );
  serveEndpoint(app, endpoints.updateLane, ({ params, body }, request) =>
    network.updateLane(request.access, params.id, body),
  );
  serveEndpoint(app, endpoints.createPlant, ({ body }, request) => network.createPlant(request.access, body));
  serveEndpoint(app, endpoints.deletePlant, ({ params, query }, request) =>
    network.deleteNode(request.access, 'plant', params.id, query.withLanes),
  );
  serveEndpoint(app, endpoints.createDc, ({ body }, request) => network.createDc(request.access, body));
  serveEndpoint(app, endpoints.deleteDc, ({ params, query }, request) =>
    network.deleteNode(request.access, 'dc', params.id, query.withLanes),
  );
  serveEndpoint(app, endpoints.createLane, ({ body }, request) => network.createLane(request.access, body));
  serveEndpoint(app, endpoints.deleteLane, ({ params }, request) =>
    network.deleteLane(request.access, params.id),
  );
  serveEndpoint(app, endpoints.updateSettings, ({ body }, request) =>
    network.updatePenalty(request.access, body.unmetPenaltyPerUnit),
  );
  serveEndpoint(app, endpoints.listScenarios, () => network.scenarios());
  serveEndpoint(app, endpoints.createScenario, ({ body }, request) =>
    network.createScenario(request.access, body),
  );
  serveEndpoint(app, endpoints.updateScenario, ({ params, body }) => network.updateScenario(params.id, body));
  serveEndpoint(app, endpoints.deleteScenario, ({ params }) => network.deleteScenario(params.id));
  serveEndpoint(app, endpoints.startRun, async ({ body }, request, reply) => {
    const run = await runs.start(request.access, body);
    reply.header('location', `/api/optimisation/runs/${run.id}`);
    return run;
  });
  serveEndpoint(app, endpoints.listRuns, ({ query }) => runs.list(query.limit));
  serveEndpoint(app, endpoints.getRun, ({ params }) => runs.get(params.id));
  serveEndpoint(app, endpoints.compare, ({ query }) => runs.compare(query.base, query.scenario));
}
