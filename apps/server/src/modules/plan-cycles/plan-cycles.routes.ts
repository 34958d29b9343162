import { Readable } from 'node:stream';
import { XLSX_MEDIA_TYPE, planCycleEndpoints as endpoints, toIsoDate } from '@ps/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../../lib/clock';
import { endpointInput, endpointRoute, serveEndpoint } from '../../lib/endpoint-route';
import { sendStreamed } from '../exports';
import type { ConsensusPlan, ConsensusPlanService } from './consensus-plan.service';
import type { PlanCycleService } from './plan-cycle.service';

/** The file's name: the day it was taken, and what the changes are since. */
function planFileName(plan: ConsensusPlan, now: Date, extension: 'csv' | 'xlsx'): string {
  const since =
    plan.since === null
      ? ''
      : 'version' in plan.since
        ? `-changes-since-v${plan.since.version}`
        : `-changes-since-${plan.since.time.toISOString().slice(0, 19).replace(/:/g, '')}Z`;
  return `consensus-plan${since}-${toIsoDate(now)}.${extension}`;
}

/** Which version the plan is as of: what a consumer asks changes since next time. */
function planHeaders(reply: FastifyReply, plan: ConsensusPlan): void {
  if (plan.latest) {
    reply
      .header('x-plan-version', String(plan.latest.id))
      .header('x-plan-published-at', new Date(plan.latest.published_at).toISOString());
  }
}

/**
 * Plan cycles: preview and publish (admins), list the published versions (any signed-in user, own
 * clients), and the plan sent out as CSV or .xlsx (any signed-in user, own clients), streamed.
 */
export function registerPlanCycleRoutes(
  app: FastifyInstance,
  service: PlanCycleService,
  plans: ConsensusPlanService,
  clock: Clock,
): void {
  serveEndpoint(app, endpoints.preview, ({ query }, request) =>
    service.preview(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.publish, ({ body }, request) => service.publish(request.access, body));
  serveEndpoint(app, endpoints.list, ({ query }, request) =>
    service.list(request.access, query.clientContext),
  );

  app.route({
    ...endpointRoute(endpoints.consensusPlanCsv),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.consensusPlanCsv, request);
      const plan = await plans.resolve(request.access, query);
      const body = Readable.from(plans.csv(plan));
      body.on('error', (error) => request.log.error({ err: error }, 'consensus plan CSV failed mid-stream'));
      planHeaders(reply, plan);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${planFileName(plan, clock.now(), 'csv')}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  });

  app.route({
    ...endpointRoute(endpoints.consensusPlanXlsx),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.consensusPlanXlsx, request);
      const plan = await plans.resolve(request.access, query);
      const now = clock.now();
      planHeaders(reply, plan);
      const name = planFileName(plan, now, 'xlsx');
      return sendStreamed(request, reply, { type: XLSX_MEDIA_TYPE, name }, (out) =>
        plans.writeXlsx(plan, out, now),
      );
    },
  });
}
