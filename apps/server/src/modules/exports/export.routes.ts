import { Readable } from 'node:stream';
import { ZGridExportQuerySchema } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { exportFileName } from './export-csv';
import type { ExportService } from './export.service';
import { parseInput } from '../../lib/validate';

/** GET /api/demand-planning/export.csv: the grid at a view level and drill-down, filtered, streamed. */
export function registerExportRoutes(app: FastifyInstance, service: ExportService): void {
  app.get('/api/demand-planning/export.csv', async (request, reply) => {
    const query = parseInput(ZGridExportQuerySchema, request.query);
    const body = Readable.from(service.csv(request.access, query));
    body.on('error', (error) => request.log.error({ err: error }, 'CSV export failed mid-stream'));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName(new Date())}"`)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
