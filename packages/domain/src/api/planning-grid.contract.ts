import { z } from 'zod';
import { REASON_CODES } from '../demand-record';
import { SUMMED_FIELDS, type SummedField } from '../demand-record-fields';
import {
  DRILL_DOWNS,
  GRID_NOTES_MAX_CELLS,
  VIEW_LEVELS,
  ZFilterOptionsQuerySchema,
  ZGridQuerySchema,
  ZRollupQuerySchema,
  type AggregatedRow,
  type FilterOptions,
  type GridCellNotes,
  type GridNotesRequest,
  type GridPage,
  type RollupItem,
} from '../planning-grid';
import { ZRecordStamp } from '../planning-grid-spread';
import { ZDemandRecord } from './demand-record.response';
import { defineEndpoint } from './endpoint';

const ZSums = z.object(
  Object.fromEntries(SUMMED_FIELDS.map((field) => [field, z.number().nullable()])) as Record<
    SummedField,
    z.ZodNullable<z.ZodNumber>
  >,
);

export const ZAggregatedRow = z.strictObject({
  id: z.string(),
  viewLevel: z.enum(VIEW_LEVELS),
  drillDown: z.enum(DRILL_DOWNS),
  PID: z.string().optional(),
  PF: z.string().optional(),
  BU: z.string().optional(),
  periodKey: z.string().optional(),
  periodLabel: z.string().optional(),
  recordCount: z.number().int().min(0),
  Rev_Pln_Ovrd_Percent: z.number().nullable(),
  SOP_Pln_Ovrd_Percent: z.number().nullable(),
  Rank: z.number().nullable(),
  Comments: z.string().nullable(),
  commentCount: z.number().int().min(0).nullable(),
  Reason_Codes: z.array(z.enum(REASON_CODES)),
  last_updated_at: z.iso.datetime({ offset: true }).nullable(),
  ...ZSums.shape,
}) satisfies z.ZodType<AggregatedRow>;

export const ZGridPage = z.strictObject({
  rows: z.array(z.union([ZDemandRecord, ZAggregatedRow])),
  total: z.number().int().min(0),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1),
  viewLevel: z.enum(VIEW_LEVELS),
  drillDown: z.enum(DRILL_DOWNS),
  stamps: z.record(z.string(), ZRecordStamp).optional(),
}) satisfies z.ZodType<GridPage>;

export const ZGridNotesRequest = z.strictObject({
  cells: z
    .array(z.strictObject({ group: z.string().max(200), periodKey: z.string().max(10) }))
    .max(GRID_NOTES_MAX_CELLS),
}) satisfies z.ZodType<GridNotesRequest>;

export const ZGridCellNotes = z.strictObject({
  id: z.string(),
  Comments: z.string().nullable(),
  commentCount: z.number().int().min(0),
  Reason_Codes: z.array(z.enum(REASON_CODES)),
}) satisfies z.ZodType<GridCellNotes>;

const ZFilterOptionList = z.array(z.strictObject({ value: z.string(), count: z.number().int().min(0) }));
export const ZFilterOptions = z.strictObject({
  businessUnits: ZFilterOptionList,
  productFamilies: ZFilterOptionList,
  regions: ZFilterOptionList,
}) satisfies z.ZodType<FilterOptions>;

export const ZRollupItem = z.strictObject({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  businessUnit: z.string().nullable(),
  productFamily: z.string().nullable(),
  skuCount: z.number().int().min(0),
  recordCount: z.number().int().min(0),
}) satisfies z.ZodType<RollupItem>;

const rollupSummary = 'Roll-up list (spec §7): products, product families or business units with counts';

/** The planning grid's server-side calls (spec §3, §7). */
export const planningGridEndpoints = {
  grid: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/grid',
    access: 'signed-in',
    summary: 'One page of the grid at a view level and drill-down, rows with data first',
    query: ZGridQuerySchema,
    response: { data: ZGridPage },
  }),
  gridNotes: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning/grid/notes',
    access: 'signed-in',
    summary:
      "The notes of a page's roll-up cells (the grid's query, the cells in the body): each cell's comment count, distinct comments and reason codes",
    query: ZGridQuerySchema,
    body: ZGridNotesRequest,
    response: { data: z.array(ZGridCellNotes) },
  }),
  filterOptions: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning/filter-options',
    access: 'signed-in',
    summary: 'Distinct values with record counts for the filter bar, each narrowed by the other filters',
    query: ZFilterOptionsQuerySchema,
    response: { data: ZFilterOptions },
  }),
  rollup: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning-rollup',
    access: 'signed-in',
    summary: `${rollupSummary}; the view level defaults to category`,
    query: ZRollupQuerySchema,
    response: { data: z.array(ZRollupItem) },
  }),
  rollupAtLevel: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning-rollup/:viewLevel',
    access: 'signed-in',
    summary: `${rollupSummary} at the view level in the path`,
    params: ZRollupQuerySchema.pick({ viewLevel: true }),
    query: ZRollupQuerySchema.omit({ viewLevel: true }),
    response: { data: z.array(ZRollupItem) },
  }),
};
