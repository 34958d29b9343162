import type { DataLoadEntity } from '@ps/domain';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { rebuildInventoryHistoryTotals, recomputeInventory } from '../inventory';
import {
  applyProducts,
  applySalesHistory,
  checkProducts,
  checkSalesHistory,
  type Checked,
} from './data-loads.repository';
import {
  applyLeadTimes,
  applyOpenOrders,
  applyPositions,
  checkLeadTimes,
  checkOpenOrders,
  checkPositions,
} from './inventory-loads.repository';

/** What a load knows when it checks and writes: who, which load, and the day it runs. */
export type LoadContext = {
  by: string;
  loadId: number;
  /** Today and the Sunday of its week (yyyy-mm-dd). */
  today: string;
  currentWeek: string;
  /** The first week whose loaded actuals get a demand record. */
  recordsFrom: string;
  asOf: Date;
  /**
   * Once the file is read: every row read has a key of its own (sales history only; see
   * FileRead), so the check need not group the rows by key.
   */
  keysDistinct?: boolean;
};

type Trx = Transaction<Database>;

/**
 * What each entity's load does once its rows are staged (stage-columns.ts): `check` refuses rows
 * and counts the rest by key, `apply` writes them. Both run in the load's one transaction.
 */
export type EntityLoader = {
  check: (trx: Trx, context: LoadContext) => Promise<Checked>;
  apply: (trx: Trx, context: LoadContext) => Promise<void>;
};

/**
 * After an inventory load the module's figures are recomputed in the same transaction (order-up-to
 * levels from the new lead times, the projection from the new stock and orders), so the screens
 * show the loaded data at once and a failure undoes the load.
 */
const thenRecompute =
  (apply: (trx: Trx, context: LoadContext) => Promise<void>) =>
  async (trx: Trx, context: LoadContext): Promise<void> => {
    await apply(trx, context);
    await recomputeInventory(trx, { asOf: context.asOf });
  };

export const ENTITY_LOADERS: Record<DataLoadEntity, EntityLoader> = {
  products: { check: checkProducts, apply: applyProducts },
  'sales-history': { check: checkSalesHistory, apply: applySalesHistory },
  'lead-times': { check: checkLeadTimes, apply: thenRecompute(applyLeadTimes) },
  'inventory-positions': {
    check: checkPositions,
    apply: thenRecompute(async (trx) => {
      await applyPositions(trx);
      await rebuildInventoryHistoryTotals(trx);
    }),
  },
  'open-orders': { check: checkOpenOrders, apply: thenRecompute(applyOpenOrders) },
};
