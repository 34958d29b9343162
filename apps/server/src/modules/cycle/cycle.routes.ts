import { cycleEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import type { CycleService } from './cycle.service';

/** The one file of a multipart push (field `file`); every way it can be wrong answers 400. */
async function pushedFile(
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
        throw AppError.validation('file: the actuals file must be sent in the field "file"', 'file');
      }
      if (found) throw AppError.validation('file: push one file at a time', 'file');
      found = { fileName: part.filename, bytes: await part.toBuffer() };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw AppError.validation(`file is larger than the ${maxBytes} bytes the feed takes`, 'file');
    if (code === 'FST_FILES_LIMIT') throw AppError.validation('file: push one file at a time', 'file');
    throw AppError.validation('file: the upload is malformed or was cut off', 'file');
  }
  if (!found) throw AppError.validation('file is required: no file was sent in the field "file"', 'file');
  return found;
}

export function registerCycleRoutes(app: FastifyInstance, service: CycleService, maxBytes: number): void {
  serveEndpoint(app, endpoints.overview, () => service.overview());
  serveEndpoint(app, endpoints.saveSchedule, ({ body }, request) =>
    service.saveSchedule(request.access, body),
  );
  serveEndpoint(app, endpoints.runNow, async (_input, request, reply) => {
    const run = await service.runNow(request.access);
    reply.header('location', endpoints.run.path.replace(':id', String(run.id)));
    return run;
  });
  serveEndpoint(app, endpoints.run, ({ params }) => service.run(params.id));
  serveEndpoint(app, endpoints.rerun, async ({ params }, request, reply) => {
    const run = await service.rerun(request.access, params.id);
    reply.header('location', endpoints.run.path.replace(':id', String(run.id)));
    return run;
  });
  serveEndpoint(app, endpoints.pushFeed, async (_input, request) =>
    service.pushFeedFile(await pushedFile(request, maxBytes)),
  );
}
