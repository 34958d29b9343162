import {
  ZBatchUpdateSchema,
  ZCreateDemandRecordSchema,
  ZListDemandRecordsQuerySchema,
  ZPidSchema,
  ZTimeSeriesSkSchema,
  ZUpdateDemandRecordSchema,
} from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../lib/envelope';
import type { DemandRecordService } from './demand-record.service';
import { parseInput } from '../../lib/validate';

const ZRecordParams = z.object({ pid: ZPidSchema, timeSeriesSk: ZTimeSeriesSkSchema });
const BASE = '/api/demand-planning/real-data';

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
  app.post(`${BASE}/batch`, { bodyLimit: 8 * 1024 * 1024 }, async (request) =>
    ok(await service.batchUpdate(request.access, parseInput(ZBatchUpdateSchema, request.body))),
  );
}
