import { sql, type Kysely } from 'kysely';

/**
 * Inventory planning. The per-product parameters of 0001 were never used; stock is
 * planned per product × site, so the table is replaced:
 * - inventory_parameters: one row per product and stocking site, with its policy (lead time,
 *   review period, replenishment frequency), its demand statistics and order-up-to levels (kept
 *   by the recompute after every forecast run), the planner's override and a version for
 *   optimistic concurrency;
 * - inventory_history: the weekly simulated stock of each row (on hand, receipts, lost demand);
 * - inventory_week_totals: weekly sums per client and business unit, of the history and of the
 *   projected supply against the plan, so the control tower reads a few thousand rows at any size;
 * - inventory_audit: one row per changed override field, with its reason code and comment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('inventory_parameters').ifExists().execute();
  await db.schema
    .createTable('inventory_parameters')
    .addColumn('pid', 'text', (c) => c.notNull().references('products.pid').onDelete('cascade'))
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('demand_share', sql`numeric(5,4)`, (c) => c.notNull())
    .addColumn('lead_time_weeks', 'integer', (c) => c.notNull())
    .addColumn('review_period_weeks', 'integer', (c) => c.notNull())
    .addColumn('replenishment_frequency_weeks', 'integer', (c) => c.notNull())
    .addColumn('avg_demand', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('std_demand', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('demand_model', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('oul_90', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('oul_95', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('oul_98', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recommended_oul', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('on_hand_units', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sd_supply_units', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('sd_demand_units', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('sd_gap_units', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('override_oul_units', 'integer')
    .addColumn('override_percent', sql`numeric(6,1)`)
    .addColumn('override_reason', 'text')
    .addColumn('override_comments', 'text')
    .addColumn('override_user', 'text')
    .addColumn('override_at', 'timestamptz')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('computed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('inventory_parameters_pk', ['pid', 'site'])
    .execute();
  // The override page filters by site and region besides the product's BU and family.
  await db.schema
    .createIndex('inventory_parameters_site')
    .on('inventory_parameters')
    .columns(['site'])
    .execute();
  // The worst-matched list reads the largest gaps first.
  await db.schema
    .createIndex('inventory_parameters_sd_gap')
    .on('inventory_parameters')
    .columns(['sd_gap_units'])
    .execute();

  await db.schema
    .createTable('inventory_history')
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('week_start', 'date', (c) => c.notNull())
    .addColumn('demand_units', 'integer', (c) => c.notNull())
    .addColumn('receipts_units', 'integer', (c) => c.notNull())
    .addColumn('on_hand_units', 'integer', (c) => c.notNull())
    .addColumn('lost_units', 'integer', (c) => c.notNull())
    .addColumn('ordered_units', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('inventory_history_pk', ['pid', 'site', 'week_start'])
    .addForeignKeyConstraint(
      'inventory_history_row',
      ['pid', 'site'],
      'inventory_parameters',
      ['pid', 'site'],
      (c) => c.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('inventory_week_totals')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('bu', 'text', (c) => c.notNull())
    .addColumn('week_start', 'date', (c) => c.notNull())
    /** 'history' (simulated past) or 'projection' (policy receipts against the final plan). */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .addColumn('demand_units', 'double precision', (c) => c.notNull())
    .addColumn('supply_units', 'double precision', (c) => c.notNull())
    .addColumn('gap_units', 'double precision', (c) => c.notNull())
    .addColumn('lost_units', 'double precision', (c) => c.notNull())
    .addColumn('stockout_items', 'integer', (c) => c.notNull())
    .addColumn('on_hand_value', sql`numeric(18,2)`, (c) => c.notNull())
    .addColumn('cogs', sql`numeric(18,2)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('inventory_week_totals_pk', ['kind', 'client_id', 'bu', 'week_start'])
    .execute();

  await db.schema
    .createTable('inventory_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('reason_code', 'text')
    .addColumn('comments', 'text')
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('source', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inventory_audit_row').on('inventory_audit').columns(['pid', 'site']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'inventory_audit',
    'inventory_week_totals',
    'inventory_history',
    'inventory_parameters',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
