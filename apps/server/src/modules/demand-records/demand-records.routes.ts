import {
  ZBatchUpdateSchema,
  ZCreateDemandRecordSchema,
  ZListDemandRecordsQuerySchema,
  ZPidSchema,
  ZTimeSeriesSkSchema,
  ZUpdateDemandRecordSchema,
} from '@ps/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ok } from '../../lib/envelope';
import { AppError } from '../../lib/errors';
import type { DemandRecordService } from './demand-record.service';
import { parseInput } from '../../lib/validate';

const ZRecordParams = z.object({ pid: ZPidSchema, timeSeriesSk: ZTimeSeriesSkSchema });
const BASE = '/api/demand-planning/real-data';

/** Aborts when the connection closes before the answer was sent: the client gave up waiting. */
function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded)
      controller.abort(
        new AppError('CONFLICT', 'The client went away before the save finished; nothing was saved'),
      );
  });
  return controller.signal;
}

/** The demand record calls of spec §7. Thin: parse, call the service with the caller's scope, wrap. */
export function registerDemandRecordRoutes(app: FastifyInstance, service: DemandRecordService): void {
  app.get(BASE, async (request) =>
    ok(await service.list(request.access, parseInput(ZListDemandRecordsQuerySchema, request.query))),
  );

  app.get(`${BASE}/:pid/:timeSeriesSk`, async (request) =>
    ok(await service.get(request.access, parseInput(ZRecordParams, request.params))),
  );

  app.post(BASE, async (request, reply) => {
    const record = await service.create(request.access, parseInput(ZCreateDemandRecordSchema, request.body));
    reply.code(201);
    return ok(record);
  });

  app.put(`${BASE}/:pid/:timeSeriesSk`, async (request) =>
    ok(
      await service.update(
        request.access,
        parseInput(ZRecordParams, request.params),
        parseInput(ZUpdateDemandRecordSchema, request.body),
      ),
    ),
  );

  app.delete(`${BASE}/:pid/:timeSeriesSk`, async (request) => {
    const key = parseInput(ZRecordParams, request.params);
    await service.remove(request.access, key);
    return ok({ deleted: true, PID: key.pid, Time_Series_sk: key.timeSeriesSk });
  });

  // A 5000-record batch of edits is about 1 MB of JSON; allow some room above Fastify's 1 MB default.
  app.post(`${BASE}/batch`, { bodyLimit: 8 * 1024 * 1024 }, async (request, reply) =>
    ok(
      await service.batchUpdate(
        request.access,
        parseInput(ZBatchUpdateSchema, request.body),
        clientGoneSignal(reply),
      ),
    ),
  );
}
