import { DATA_LOAD_LAYOUTS, dataLoadEndpoints as endpoints, XLSX_MEDIA_TYPE } from '@ps/domain';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpointInput, endpointRoute, serveEndpoint } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import { megabytes, type DataLoadService } from './data-loads.service';
import { templateCsv, templateXlsx } from './templates';

/**
 * Admin bulk loads: the layouts and templates, a file's load (multipart, field `file`; 202 with the
 * running load), a load's progress and the load log.
 */
export function registerDataLoadRoutes(
  app: FastifyInstance,
  service: DataLoadService,
  maxBytes: number,
): void {
  serveEndpoint(app, endpoints.layouts, async () =>
    Object.values(DATA_LOAD_LAYOUTS).map((layout) => ({
      entity: layout.entity,
      title: layout.title,
      description: layout.description,
      columns: layout.columns.map(({ key, header, aliases, required, description, example }) => ({
        key,
        header,
        aliases: [...aliases],
        required,
        description,
        example,
      })),
      oneOf: (layout.oneOf ?? []).map((group) => [...group]),
    })),
  );
  app.route({
    ...endpointRoute(endpoints.template),
    handler: async (request, reply) => {
      const { params, query } = endpointInput(endpoints.template, request);
      const name = `${params.entity}-template.${query.format ?? 'csv'}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      if (query.format === 'xlsx') return reply.type(XLSX_MEDIA_TYPE).send(await templateXlsx(params.entity));
      return reply.type('text/csv; charset=utf-8').send(templateCsv(params.entity));
    },
  });
  serveEndpoint(app, endpoints.load, async ({ params, query }, request, reply) => {
    const job = await uploadAndLoad(request, maxBytes, (fileName, stream) =>
      service.load({
        entity: params.entity,
        fileName,
        dryRun: query.dryRun ?? false,
        user: request.access,
        stream,
      }),
    );
    reply.header('location', endpoints.job.path.replace(':id', String(job.id)));
    return job;
  });
  serveEndpoint(app, endpoints.job, ({ params }, request) => service.job(request.access, params.id));
  serveEndpoint(app, endpoints.log, (_input, request) => service.log(request.access));
}

/**
 * Streams the one file of a multipart request into `load`; every way an upload can be wrong answers
 * 400 naming the field, never 500.
 */
async function uploadAndLoad<T extends { job: { id: number } }>(
  request: FastifyRequest,
  maxBytes: number,
  load: (fileName: string, stream: Readable) => Promise<T>,
): Promise<T['job']> {
  if (!request.isMultipart())
    throw AppError.validation(
      'file is required: send multipart/form-data with one file in the field "file"',
      'file',
    );
  let result: T | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || result) {
        part.file.resume();
        throw AppError.validation(
          result
            ? 'file: only one file can be loaded at a time'
            : 'file: the file must be sent in the field "file"',
          'file',
        );
      }
      if (part.filename.length > 255 || part.filename.includes('\u0000'))
        throw AppError.validation('file name must be at most 255 characters without NUL', 'file');
      try {
        result = await load(part.filename, part.file);
      } catch (error) {
        // The rest of a refused upload is drained, so the request ends and the answer goes out.
        part.file.resume();
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw AppError.validation(`file is larger than the ${megabytes(maxBytes)} data load limit`, 'file');
    if (code === 'FST_FILES_LIMIT')
      throw AppError.validation('file: only one file can be loaded at a time', 'file');
    throw AppError.validation('file: the upload is malformed or was cut off', 'file');
  }
  if (!result) throw AppError.validation('file is required: no file was sent in the field "file"', 'file');
  return result.job;
}
