import type { DataLoadEntity } from '@ps/domain';

export type StageType = 'int4' | 'text' | 'numeric' | 'date' | 'bool' | 'float8';

/** A stage table column: the row value's key, the column's name and its SQL type. */
export type StageColumn = { key: string; name: string; type: StageType };

/**
 * The columns of each entity's stage table, in COPY order: the rows of a file land here before the
 * set-based checks and upsert (data-loads.repository.ts).
 */
export const STAGE_COLUMNS: Record<DataLoadEntity, readonly StageColumn[]> = {
  products: [
    { key: 'rowNo', name: 'row_no', type: 'int4' },
    { key: 'pid', name: 'pid', type: 'text' },
    { key: 'client', name: 'client_id', type: 'text' },
    { key: 'bu', name: 'bu', type: 'text' },
    { key: 'pf', name: 'pf', type: 'text' },
    { key: 'class', name: 'class', type: 'text' },
    { key: 'region', name: 'region', type: 'text' },
    { key: 'site', name: 'site', type: 'text' },
    { key: 'entityType', name: 'entity_type', type: 'text' },
    { key: 'planner', name: 'planner', type: 'text' },
    { key: 'unitCost', name: 'unit_cost', type: 'numeric' },
    { key: 'unitPrice', name: 'unit_price', type: 'numeric' },
    { key: 'effectiveDate', name: 'effective_from', type: 'date' },
  ],
  'sales-history': [
    { key: 'rowNo', name: 'row_no', type: 'int4' },
    { key: 'pid', name: 'pid', type: 'text' },
    { key: 'week', name: 'week_start', type: 'date' },
    { key: 'isDay', name: 'is_day', type: 'bool' },
    { key: 'units', name: 'units', type: 'float8' },
    { key: 'revenue', name: 'revenue', type: 'numeric' },
    { key: 'cost', name: 'cost', type: 'numeric' },
  ],
  'lead-times': [
    { key: 'rowNo', name: 'row_no', type: 'int4' },
    { key: 'pid', name: 'pid', type: 'text' },
    { key: 'site', name: 'site', type: 'text' },
    { key: 'region', name: 'region', type: 'text' },
    { key: 'leadTimeWeeks', name: 'lead_time_weeks', type: 'int4' },
    { key: 'leadTimeSdWeeks', name: 'lead_time_sd_weeks', type: 'float8' },
    { key: 'reviewPeriod', name: 'review_period_weeks', type: 'int4' },
    { key: 'replenishmentFrequency', name: 'replenishment_frequency_weeks', type: 'int4' },
    { key: 'demandShare', name: 'demand_share', type: 'float8' },
  ],
  'inventory-positions': [
    { key: 'rowNo', name: 'row_no', type: 'int4' },
    { key: 'pid', name: 'pid', type: 'text' },
    { key: 'site', name: 'site', type: 'text' },
    { key: 'asOf', name: 'as_of', type: 'date' },
    { key: 'onHand', name: 'on_hand_units', type: 'int4' },
  ],
  'open-orders': [
    { key: 'rowNo', name: 'row_no', type: 'int4' },
    { key: 'order', name: 'order_id', type: 'text' },
    { key: 'pid', name: 'pid', type: 'text' },
    { key: 'site', name: 'site', type: 'text' },
    { key: 'quantity', name: 'quantity', type: 'int4' },
    { key: 'dueDate', name: 'due_date', type: 'date' },
    { key: 'status', name: 'status', type: 'text' },
  ],
};
