import { z } from 'zod';
import {
  ZLockRequestSchema,
  ZRecordHistoryEntry,
  ZSpreadRequestSchema,
  ZSpreadResult,
} from '../planning-grid-spread';
import { ZSpreadBatchRequestSchema, ZTimePhasedPage, ZTimePhasedQuerySchema } from '../time-phased';
import { ZRecordParams } from './demand-records.contract';
import { defineEndpoint } from './endpoint';
import { ZAggregatedRow } from './planning-grid.contract';

/**
 * A single cell's spread: what it moves and, once saved, the cell's row as the view now sums it
 * (same filters and weeks), so the grid shows the new figures without reading its page again.
 */
export const ZSpreadCellResult = ZSpreadResult.extend({ row: ZAggregatedRow.optional() });
export type SpreadCellResult = z.infer<typeof ZSpreadCellResult>;

/** The planner's grid beyond single-record edits: aggregate edits, locks, cell history. */
export const spreadingEndpoints = {
  spread: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning/spread',
    access: 'write',
    summary:
      'Spreads a units or percent override typed into an aggregated cell over the unlocked records under it, in one audited transaction; preview answers what it would move',
    body: ZSpreadRequestSchema,
    response: { data: ZSpreadCellResult },
  }),
  spreadBatch: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning/spread-batch',
    access: 'write',
    summary:
      'Spreads several aggregate edits (a pasted range) as the spread endpoint does, all in one audited transaction; preview answers what they would move together',
    body: ZSpreadBatchRequestSchema,
    response: { data: ZSpreadResult },
  }),
  timePhased: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/time-phased',
    access: 'signed-in',
    summary:
      'The time-phased planning view: a page of products, families or business units, each with its measures per week, month or quarter',
    query: ZTimePhasedQuerySchema,
    response: { data: ZTimePhasedPage },
  }),
  locks: defineEndpoint({
    method: 'PUT',
    path: '/api/demand-planning/locks',
    access: 'write',
    summary: 'Locks or unlocks records against aggregate edits',
    body: ZLockRequestSchema,
    response: { data: z.strictObject({ records: z.number().int().min(0), locked: z.boolean() }) },
  }),
  lastSave: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/undo',
    access: 'write',
    summary:
      "How many records the caller's last save changed, which Undo Last Save would revert (0: none to undo)",
    response: { data: z.strictObject({ records: z.number().int().min(0) }) },
  }),
  undo: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning/undo',
    access: 'write',
    summary: "Undoes the caller's last save as a new audited change, if nobody changed those fields since",
    response: {
      data: z.strictObject({
        updatedRecords: z.number().int().min(0),
        changedFields: z.number().int().min(0),
      }),
    },
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/real-data/:pid/:timeSeriesSk/history',
    access: 'signed-in',
    summary:
      "A record's audit trail, newest first: who, when, old → new, origin, cause, reason code, comment",
    params: ZRecordParams,
    response: { data: z.array(ZRecordHistoryEntry) },
  }),
};
