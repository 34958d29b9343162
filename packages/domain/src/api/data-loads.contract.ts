import { z } from 'zod';
import { ZRowId } from './row-id';
import { DATA_LOAD_ENTITIES } from '../data-loads/layouts';
import { defineEndpoint } from './endpoint';

/** Refusals in an answer stop at this many; `counts.refused` says how many there are. */
export const DATA_LOAD_REFUSAL_LIMIT = 500;

const ZEntity = z.enum(DATA_LOAD_ENTITIES, {
  error: `must be one of ${DATA_LOAD_ENTITIES.join(', ')}`,
});

export const ZDataLoadRefusal = z.strictObject({
  row: z.number().int().min(1),
  field: z.string(),
  reason: z.string(),
});

export const ZDataLoadCounts = z.strictObject({
  inserted: z.number().int().min(0),
  updated: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  refused: z.number().int().min(0),
});
export type DataLoadCounts = z.infer<typeof ZDataLoadCounts>;

/**
 * One load of one file: a job the upload answers at once and the page polls. `succeeded` wrote
 * everything (or, for a dry run, would have); `refused` wrote nothing because rows were refused;
 * `failed` wrote nothing because of `error`.
 */
export const ZDataLoadJob = z.strictObject({
  id: z.number().int().min(1),
  entity: ZEntity,
  fileName: z.string(),
  dryRun: z.boolean(),
  status: z.enum(['running', 'succeeded', 'refused', 'failed']),
  loadedBy: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().min(0).nullable(),
  /** Data rows read so far (all of them once the load ended). */
  processedRows: z.number().int().min(0),
  /** Bytes of the file read so far, and its size: the progress while it is read. */
  processedBytes: z.number().int().min(0),
  totalBytes: z.number().int().min(0),
  /** Counted per key (a product and price date; a product and week), once the rows are all read. */
  counts: ZDataLoadCounts.nullable(),
  refusals: z.array(ZDataLoadRefusal),
  error: z.string().nullable(),
  /** Milliseconds per step (read, stage, count, write), for the bench and logs. */
  steps: z.record(z.string(), z.number()),
});
export type DataLoadJob = z.infer<typeof ZDataLoadJob>;

export const ZDataLoadLayoutColumn = z.strictObject({
  key: z.string(),
  header: z.string(),
  aliases: z.array(z.string()),
  required: z.boolean(),
  description: z.string(),
  example: z.string(),
});

export const ZDataLoadLayout = z.strictObject({
  entity: ZEntity,
  title: z.string(),
  description: z.string(),
  columns: z.array(ZDataLoadLayoutColumn),
  oneOf: z.array(z.array(z.string())),
});

const ZBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');

export const ZDataLoadUploadQuery = z.strictObject({ dryRun: ZBoolean.optional() });
export const ZDataLoadEntityParams = z.strictObject({ entity: ZEntity });
export const ZDataLoadJobParams = z.strictObject({
  id: ZRowId,
});
export const ZTemplateQuery = z.strictObject({
  format: z.enum(['csv', 'xlsx'], { error: 'must be csv or xlsx' }).optional(),
});

/** Admin bulk loads (docs/data-integration.md): multipart with one file in the field `file`. */
export const dataLoadEndpoints = {
  layouts: defineEndpoint({
    method: 'GET',
    path: '/api/data-loads/layouts',
    access: 'admin',
    summary: 'The layout of each entity a bulk load takes: its columns, their aliases and what they hold',
    response: { data: z.array(ZDataLoadLayout) },
  }),
  template: defineEndpoint({
    method: 'GET',
    path: '/api/data-loads/templates/:entity',
    access: 'admin',
    summary: "An entity's template: its header and an example row, as CSV (default) or .xlsx",
    params: ZDataLoadEntityParams,
    query: ZTemplateQuery,
    response: { mediaType: 'text/csv' },
  }),
  load: defineEndpoint({
    method: 'POST',
    path: '/api/data-loads/:entity',
    access: 'admin',
    summary:
      'Loads one file of an entity (multipart, field file; .csv or .xlsx): an upsert by key, all or nothing; dryRun=true only reports. Answers the running load',
    params: ZDataLoadEntityParams,
    query: ZDataLoadUploadQuery,
    status: 202,
    response: { data: ZDataLoadJob },
  }),
  job: defineEndpoint({
    method: 'GET',
    path: '/api/data-loads/jobs/:id',
    access: 'admin',
    summary: 'One load: its progress, and its counts and refusals once it ended',
    params: ZDataLoadJobParams,
    response: { data: ZDataLoadJob },
  }),
  log: defineEndpoint({
    method: 'GET',
    path: '/api/data-loads',
    access: 'admin',
    summary:
      'The load log: the latest 100 loads, newest first (who, when, file, entity, counts, duration, outcome)',
    response: { data: z.array(ZDataLoadJob) },
  }),
};
