import { importEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import type { ImportService } from './imports.service';

const megabytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * The one uploaded file of a multipart request (spec §5: exactly one file, field `file`). Every
 * way an upload can be wrong answers 400 naming the field (413 when it is over the size limit), never 500.
 */
async function uploadedFile(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ fileName: string; bytes: Buffer }> {
  if (!request.isMultipart())
    throw AppError.validation(
      'file is required: send multipart/form-data with one file in the field "file"',
      'file',
    );
  let found: { fileName: string; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw AppError.validation('file: the spreadsheet must be sent in the field "file"', 'file');
      }
      if (found) throw AppError.validation('file: only one file can be imported at a time', 'file');
      found = { fileName: part.filename, bytes: await part.toBuffer() };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('TOO_LARGE', `file is larger than the ${megabytes(maxBytes)} import limit`, {
        field: 'file',
      });
    if (code === 'FST_FILES_LIMIT')
      throw AppError.validation('file: only one file can be imported at a time', 'file');
    throw AppError.validation('file: the upload is malformed or was cut off', 'file');
  }
  if (!found) throw AppError.validation('file is required: no file was sent in the field "file"', 'file');
  if (found.fileName.length > 255 || found.fileName.includes('\u0000'))
    throw AppError.validation('file name must be at most 255 characters without NUL', 'file');
  return found;
}

/**
 * Spreadsheet import: one item as JSON, a file's preview, a file's import (multipart, field
 * `file`; answers 202 with the running import) and the import's progress.
 */
export function registerImportRoutes(app: FastifyInstance, service: ImportService, maxBytes: number): void {
  serveEndpoint(app, endpoints.item, ({ query, body }, request) =>
    service.importItem(request.access, query.clientContext, body),
  );
  serveEndpoint(app, endpoints.preview, async ({ query }, request) =>
    service.preview(request.access, query.clientContext, await uploadedFile(request, maxBytes)),
  );
  serveEndpoint(app, endpoints.import, async ({ query }, request, reply) => {
    const job = await service.importFile(
      request.access,
      query.clientContext,
      await uploadedFile(request, maxBytes),
    );
    reply.header('location', endpoints.job.path.replace(':id', String(job.id)));
    return job;
  });
  serveEndpoint(app, endpoints.job, ({ params }, request) => service.job(request.access, params.id));
}
