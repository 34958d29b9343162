import { PassThrough, Readable } from 'node:stream';
import {
  XLSX_MEDIA_TYPE,
  csvFileName,
  detailedWorkbookFileName,
  exportEndpoints as endpoints,
  templateFileName,
  workbookFileName,
} from '@ps/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock';
import { endpointInput, endpointRoute } from '../../lib/endpoint-route';
import type { ExportService } from './export.service';
import { DownloadClosedError } from './zip-writer';

/**
 * Sends a file that is written while it downloads. Input was validated before this (a 400 comes
 * back as JSON); a failure after the first byte can only cut the download, which the browser
 * reports as a failed export, and is logged.
 */
export function sendStreamed(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { type: string; name: string; rows?: number },
  write: (out: PassThrough) => Promise<void>,
) {
  const out = new PassThrough();
  write(out).then(
    () => out.end(),
    (error: unknown) => {
      if (error instanceof DownloadClosedError) request.log.info('export stopped: the download was closed');
      else request.log.error({ err: error }, 'export failed mid-stream');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  reply
    .type(file.type)
    .header('content-disposition', `attachment; filename="${file.name}"`)
    .header('cache-control', 'no-store');
  if (file.rows !== undefined) reply.header('x-export-rows', String(file.rows));
  return reply.send(out);
}

/**
 * Quick Export (CSV, .xlsx), Detailed Export and Template Download, all streamed. The clock's day
 * names the files, picks the exchange rate and the Detailed Export's four quarters.
 */
export function registerExportRoutes(app: FastifyInstance, service: ExportService, clock: Clock): void {
  app.route({
    ...endpointRoute(endpoints.gridCsv),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.gridCsv, request);
      const now = clock.now();
      const locale = await service.localeOf(request.access, now);
      const body = Readable.from(service.csv(request.access, query, locale));
      body.on('error', (error) => request.log.error({ err: error }, 'CSV export failed mid-stream'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName(now)}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  });

  app.route({
    ...endpointRoute(endpoints.gridXlsx),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.gridXlsx, request);
      const now = clock.now();
      const locale = await service.localeOf(request.access, now);
      const name = workbookFileName(query.viewLevel, query.drillDown, now);
      return sendStreamed(request, reply, { type: XLSX_MEDIA_TYPE, name }, (out) =>
        service.writeGridXlsx(request.access, query, out, locale),
      );
    },
  });

  app.route({
    ...endpointRoute(endpoints.detailedXlsx),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.detailedXlsx, request);
      const now = clock.now();
      // Counted first so the browser can say how many rows it got (spec §8 'Export Successful').
      const [rows, locale] = await Promise.all([
        service.detailedRowCount(request.access, query),
        service.localeOf(request.access, now),
      ]);
      const name = detailedWorkbookFileName(query.viewLevel, query.drillDown, now);
      return sendStreamed(request, reply, { type: XLSX_MEDIA_TYPE, name, rows }, (out) =>
        service.writeDetailedXlsx(request.access, query, out, now, locale),
      );
    },
  });

  app.route({
    ...endpointRoute(endpoints.templateXlsx),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.templateXlsx, request);
      const name = templateFileName(query.viewLevel, query.drillDown);
      return sendStreamed(request, reply, { type: XLSX_MEDIA_TYPE, name }, (out) =>
        service.writeTemplateXlsx(out),
      );
    },
  });
}
