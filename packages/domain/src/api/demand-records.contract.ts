import { z } from 'zod';
import {
  ZBatchUpdateSchema,
  ZCreateDemandRecordSchema,
  ZListDemandRecordsQuerySchema,
  ZPidSchema,
  ZTimeSeriesSkSchema,
  ZUpdateDemandRecordSchema,
} from '../demand-record.schema';
import { ZDemandRecord } from './demand-record.response';
import { defineEndpoint } from './endpoint';

const BASE = '/api/demand-planning/real-data';

/** A record's key in the path: /real-data/{pid}/{timeSeriesSk}. */
export const ZRecordParams = z.object({ pid: ZPidSchema, timeSeriesSk: ZTimeSeriesSkSchema });

/** The demand record calls of spec §7. */
export const demandRecordEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: BASE,
    access: 'signed-in',
    summary: 'Demand records of the clients the caller may see, filtered, one page at a time',
    query: ZListDemandRecordsQuerySchema,
    response: {
      data: z.strictObject({
        items: z.array(ZDemandRecord),
        count: z.number().int().min(0),
        nextToken: z.string().nullable(),
      }),
    },
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${BASE}/:pid/:timeSeriesSk`,
    access: 'signed-in',
    summary: 'One demand record',
    params: ZRecordParams,
    response: { data: ZDemandRecord },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: BASE,
    access: 'write',
    summary: 'Creates a demand record (and its product when the PID is new)',
    body: ZCreateDemandRecordSchema,
    status: 201,
    response: { data: ZDemandRecord },
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: `${BASE}/:pid/:timeSeriesSk`,
    access: 'write',
    summary: "Changes a record's editable fields; a stale version is refused with the current record",
    params: ZRecordParams,
    body: ZUpdateDemandRecordSchema,
    response: { data: ZDemandRecord },
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${BASE}/:pid/:timeSeriesSk`,
    access: 'write',
    summary: 'Deletes a demand record',
    params: ZRecordParams,
    response: {
      data: z.strictObject({ deleted: z.literal(true), PID: z.string(), Time_Series_sk: z.string() }),
    },
  }),
  batch: defineEndpoint({
    method: 'POST',
    path: `${BASE}/batch`,
    access: 'write',
    summary: 'Applies many record updates in one transaction: all of them or none',
    body: ZBatchUpdateSchema,
    response: {
      data: z.strictObject({
        updatedRecords: z.number().int().min(0),
        changedFields: z.number().int().min(0),
        items: z.array(ZDemandRecord),
      }),
    },
  }),
};
