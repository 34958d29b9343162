import { z } from 'zod';
import {
  INVENTORY_REASON_CODES,
  MAX_INVENTORY_COMMENT,
  MAX_OVERRIDE_PERCENT,
  MAX_OVERRIDE_UNITS,
} from '../inventory/override';
import { defineEndpoint } from './endpoint';

/** Spec §9: the inventory grid shows 20 rows a page. */
export const INVENTORY_PAGE_SIZE = 20;

const ZNumber = z.number().refine(Number.isFinite);
const ZCount = z.number().int().min(0);
const ZName = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });
const clientContext = z.string().max(50).optional();

export const ZInventoryRow = z.strictObject({
  id: z.string(),
  sku: z.string(),
  site: z.string(),
  region: z.string(),
  category: z.string(),
  businessUnit: z.string(),
  revenueClass: z.string(),
  unitCost: ZNumber,
  avgDemand: ZNumber,
  stdDemand: ZNumber,
  demandModel: z.string(),
  leadTime: ZCount,
  /** Standard deviation of the lead time, weeks. */
  leadTimeSd: ZNumber,
  reviewPeriod: ZCount,
  replenishmentFreq: ZCount,
  onHand: ZCount,
  targetOUL90: ZCount,
  targetOUL95: ZCount,
  targetOUL98: ZCount,
  recommendedServiceLevel: ZCount,
  recommendedOULTarget: ZCount,
  /**
   * Safety stock of the recommended OUL (OUL − μ(L+R)) and what the normal approximation of the
   * RMS forecast error would have set at the same service level; null before the first recompute.
   */
  safetyStock: z.number().nullable(),
  safetyStockNormal: z.number().nullable(),
  overrideOULUnits: ZCount.nullable(),
  overridePercentage: ZNumber.nullable(),
  reasonCode: z.string().nullable(),
  comments: z.string().nullable(),
  overrideUser: z.string().nullable(),
  overrideTimestamp: z.iso.datetime().nullable(),
  lastUpdated: z.iso.datetime(),
  version: z.number().int().min(1),
});
export type InventoryRow = z.infer<typeof ZInventoryRow>;

const ZLargestChange = z.strictObject({
  sku: z.string(),
  site: z.string(),
  recommendedOULTarget: ZCount,
  overrideOULUnits: ZCount,
  changePercent: ZNumber,
});

export const ZInventoryPage = z.strictObject({
  items: z.array(ZInventoryRow),
  total: ZCount,
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  summary: z.strictObject({
    totalItems: ZCount,
    modifiedItems: ZCount,
    overridesActive: ZCount,
    avgOverridePercent: ZNumber,
    /** Sums over the filter's rows: safety stock from the forecast quantiles and from the normal formula. */
    safetyStockUnits: z.number(),
    safetyStockNormalUnits: z.number(),
  }),
  insights: z.strictObject({
    itemsOver150: ZCount,
    avgOverridePercent: ZNumber,
    largestChanges: z.array(ZLargestChange),
  }),
});
export type InventoryPage = z.infer<typeof ZInventoryPage>;

export const ZInventoryFilters = z.object({
  category: ZName.optional(),
  businessUnit: ZName.optional(),
  region: ZName.optional(),
  site: ZName.optional(),
  sku: ZName.optional(),
  /** Part of a SKU, any case: the rows whose SKU contains it. */
  search: ZName.optional(),
});
export type InventoryFilters = z.infer<typeof ZInventoryFilters>;

export const ZInventoryPageQuery = ZInventoryFilters.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  clientContext,
});

const ZOverrideUnits = z
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number of units' })
  .min(0, { error: 'must not be negative' })
  .max(MAX_OVERRIDE_UNITS, { error: `must be at most ${MAX_OVERRIDE_UNITS}` });
const ZOverridePercent = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be between 0 and 1000' })
  .max(MAX_OVERRIDE_PERCENT, { error: 'must be between 0 and 1000' });

/** One row's change: units or percent (units win when both are sent); null clears the override. */
export const ZInventoryChange = z.strictObject({
  overrideOULUnits: ZOverrideUnits.nullable().optional(),
  overridePercentage: ZOverridePercent.nullable().optional(),
  reasonCode: z
    .enum(INVENTORY_REASON_CODES, { error: `must be one of ${INVENTORY_REASON_CODES.join(', ')}` })
    .nullable()
    .optional(),
  comments: z
    .string({ error: 'must be text' })
    .max(MAX_INVENTORY_COMMENT, { error: `must be at most ${MAX_INVENTORY_COMMENT} characters` })
    .nullable()
    .optional(),
  version: z.number({ error: 'must be a number' }).int().min(1),
});
export type InventoryChange = z.infer<typeof ZInventoryChange>;

const ZRowKey = { sku: ZName, site: ZName };
/** A row's key in the path: /overrides/{pid}/{site}. */
export const ZInventoryRowParams = z.object({ pid: ZName, site: ZName });

export const ZInventoryBatch = z.strictObject({
  changes: z
    .array(ZInventoryChange.extend(ZRowKey))
    .min(1, { error: 'must hold at least one change' })
    .max(500, { error: 'must hold at most 500 changes' }),
});

export const ZInventoryAuditEntry = z.strictObject({
  field: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  reasonCode: z.string().nullable(),
  comments: z.string().nullable(),
  changedBy: z.string(),
  changedAt: z.iso.datetime(),
});
export type InventoryAuditEntry = z.infer<typeof ZInventoryAuditEntry>;

const ZWeekKey = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const ZInventoryMetrics = z.strictObject({
  asOf: ZWeekKey.nullable(),
  serviceTarget: ZNumber,
  cards: z.strictObject({
    totalInventoryValue: ZNumber,
    inventoryTurnover: ZNumber,
    stockouts: ZCount,
    serviceLevel: ZNumber,
  }),
  weeks: z.array(
    z.strictObject({
      week: ZWeekKey,
      inventoryValue: ZNumber,
      turnover: ZNumber,
      stockouts: ZCount,
      serviceLevel: ZNumber,
    }),
  ),
  byBusinessUnit: z.array(
    z.strictObject({
      businessUnit: z.string(),
      inventoryValue: ZNumber,
      turnover: ZNumber,
      stockouts: ZCount,
      serviceLevel: ZNumber,
    }),
  ),
});
export type InventoryMetrics = z.infer<typeof ZInventoryMetrics>;

export const ZSdMatch = z.strictObject({
  horizonWeeks: ZCount,
  /**
   * Where projected supply comes from: the network plan of an optimisation run for the weeks it
   * covers (the rest from the order-up-to policy), or the policy alone.
   */
  supplySource: z.strictObject({
    kind: z.enum(['network', 'policy']),
    runId: z.number().int().nullable(),
    networkWeeks: ZCount,
  }),
  cards: z.strictObject({
    matchRate: ZNumber,
    supplyVariance: ZNumber,
    demandVolatility: ZNumber,
    optimizationScore: ZNumber,
  }),
  weeks: z.array(z.strictObject({ week: ZWeekKey, supply: ZNumber, demand: ZNumber, matchRate: ZNumber })),
  worst: z.array(
    z.strictObject({
      sku: z.string(),
      site: z.string(),
      businessUnit: z.string(),
      supply: ZNumber,
      demand: ZNumber,
      gap: ZNumber,
      matchRate: ZNumber,
    }),
  ),
});
export type SdMatch = z.infer<typeof ZSdMatch>;

const ZContextQuery = z.object({ clientContext });
const BASE = '/api/inventory';

/** Inventory planning: the override page, its saves, and the two control tower screens. */
export const inventoryEndpoints = {
  page: defineEndpoint({
    method: 'GET',
    path: `${BASE}/overrides`,
    access: 'signed-in',
    summary: 'One page (20 rows) of product × site order-up-to levels, with summary cards and insights',
    query: ZInventoryPageQuery,
    response: { data: ZInventoryPage },
  }),
  filterOptions: defineEndpoint({
    method: 'GET',
    path: `${BASE}/filter-options`,
    access: 'signed-in',
    summary: 'Categories, business units, regions and sites of the inventory rows the caller may see',
    query: ZContextQuery,
    response: {
      data: z.strictObject({
        categories: z.array(z.string()),
        businessUnits: z.array(z.string()),
        regions: z.array(z.string()),
        sites: z.array(z.string()),
      }),
    },
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: `${BASE}/overrides/:pid/:site`,
    access: 'write',
    summary:
      "Confirms one row's override (units or percent, reason code, comment); a stale version is refused",
    params: ZInventoryRowParams,
    body: ZInventoryChange,
    response: { data: ZInventoryRow },
  }),
  batch: defineEndpoint({
    method: 'POST',
    path: `${BASE}/overrides/batch`,
    access: 'write',
    summary: 'Confirms many rows in one transaction: all of them or none',
    body: ZInventoryBatch,
    response: { data: z.strictObject({ updated: ZCount, items: z.array(ZInventoryRow) }) },
  }),
  audit: defineEndpoint({
    method: 'GET',
    path: `${BASE}/overrides/:pid/:site/audit`,
    access: 'signed-in',
    summary: "A row's override history, newest first",
    params: ZInventoryRowParams,
    response: { data: z.array(ZInventoryAuditEntry) },
  }),
  metrics: defineEndpoint({
    method: 'GET',
    path: `${BASE}/metrics`,
    access: 'signed-in',
    summary: 'Inventory value, turnover, stockouts and service level: last 52 weeks and by business unit',
    query: ZContextQuery,
    response: { data: ZInventoryMetrics },
  }),
  sdMatch: defineEndpoint({
    method: 'GET',
    path: `${BASE}/sd-match`,
    access: 'signed-in',
    summary: 'Projected supply of the order-up-to policy against the final demand plan, by week',
    query: ZContextQuery,
    response: { data: ZSdMatch },
  }),
};
