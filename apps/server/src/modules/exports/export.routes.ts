import { Readable } from 'node:stream';
import { exportEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { endpointInput, endpointRoute } from '../../lib/endpoint-route';
import { exportFileName } from './export-csv';
import type { ExportService } from './export.service';

/** GET /api/demand-planning/export.csv: the grid at a view level and drill-down, filtered, streamed. */
export function registerExportRoutes(app: FastifyInstance, service: ExportService): void {
  app.route({
    ...endpointRoute(endpoints.gridCsv),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.gridCsv, request);
      const body = Readable.from(service.csv(request.access, query));
      body.on('error', (error) => request.log.error({ err: error }, 'CSV export failed mid-stream'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(new Date())}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  });
}
