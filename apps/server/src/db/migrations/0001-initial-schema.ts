import { sql, type Kysely } from 'kysely';

/** Products, demand records, sales history, published plan versions, audit log, inventory parameters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('products')
    .addColumn('pid', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('bu', 'text', (c) => c.notNull())
    .addColumn('pf', 'text', (c) => c.notNull())
    .addColumn('class', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('unit_cost', sql`numeric(14,4)`, (c) => c.notNull())
    .addColumn('unit_price', sql`numeric(14,4)`, (c) => c.notNull())
    .addColumn('rank', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The grid's filter bar narrows by client first, then BU / PF / region / site.
  await db.schema
    .createIndex('products_client_bu_pf')
    .on('products')
    .columns(['client_id', 'bu', 'pf'])
    .execute();
  await db.schema
    .createIndex('products_client_region_site')
    .on('products')
    .columns(['client_id', 'region', 'site'])
    .execute();
  await db.schema.createIndex('products_client_pid').on('products').columns(['client_id', 'pid']).execute();

  const units = 'double precision';
  const money = sql`numeric(16,2)`;
  await db.schema
    .createTable('demand_records')
    .addColumn('pid', 'text', (c) => c.notNull().references('products.pid').onDelete('cascade'))
    .addColumn('week_start', 'date', (c) => c.notNull())
    .addColumn('act_bkg_units', units)
    .addColumn('act_bkg_cost', money)
    .addColumn('act_rev_dlrs', money)
    .addColumn('naive_fcst_units', units)
    .addColumn('ensemble_fcst_units', units)
    .addColumn('rev_pln_ovrd_percent', sql`numeric(5,2)`)
    .addColumn('rev_pln_ovrd_units', 'integer')
    .addColumn('prelim_pln_units', 'integer')
    .addColumn('prelim_pln_cost', money)
    .addColumn('prelim_pln_rev_dlrs', money)
    .addColumn('sop_pln_ovrd_percent', sql`numeric(5,2)`)
    .addColumn('sop_pln_ovrd_units', 'integer')
    .addColumn('final_pln_units', 'integer')
    .addColumn('final_bk_pln_cost', money)
    .addColumn('final_pln_rev_dlrs', money)
    .addColumn('delta_prelim_to_final_pln_units', 'integer')
    .addColumn('delta_prelim_to_final_pln_cost', money)
    .addColumn('delta_prelim_to_final_pln_rev_dlrs', money)
    .addColumn('reason_code', 'text')
    .addColumn('comments', 'text')
    .addColumn('p1_pub_pln_units', 'integer')
    .addColumn('p1_pub_pln_cost', money)
    .addColumn('p1_pub_pln_rev_dlrs', money)
    .addColumn('p2_pub_pln_units', 'integer')
    .addColumn('p2_pub_pln_cost', money)
    .addColumn('p2_pub_pln_rev_dlrs', money)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_updated_at', 'timestamptz')
    .addColumn('last_updated_by', 'text')
    .addPrimaryKeyConstraint('demand_records_pk', ['pid', 'week_start'])
    .execute();
  // Date-range filters and time-bucket roll-ups scan by week across products.
  await db.schema
    .createIndex('demand_records_week')
    .on('demand_records')
    .columns(['week_start', 'pid'])
    .execute();

  await db.schema
    .createTable('sales_history')
    .addColumn('pid', 'text', (c) => c.notNull().references('products.pid').onDelete('cascade'))
    .addColumn('week_start', 'date', (c) => c.notNull())
    .addColumn('units', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_history_pk', ['pid', 'week_start'])
    .execute();

  await db.schema
    .createTable('plan_versions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('cycle', 'text', (c) => c.notNull())
    .addColumn('published_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_by', 'text', (c) => c.notNull())
    .addColumn('scope', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('record_count', 'integer', (c) => c.notNull())
    .addColumn('final_units', 'bigint', (c) => c.notNull())
    .addColumn('final_cost', money, (c) => c.notNull())
    .addColumn('final_revenue', money, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plan_versions_client_time')
    .on('plan_versions')
    .columns(['client_id', 'published_at'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('week_start', 'date', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('source', 'text', (c) => c.notNull())
    .execute();
  // "Modified today" counts and a record's history are the two ways the log is read.
  await db.schema
    .createIndex('audit_log_client_time')
    .on('audit_log')
    .columns(['client_id', 'changed_at'])
    .execute();
  await db.schema.createIndex('audit_log_record').on('audit_log').columns(['pid', 'week_start']).execute();

  await db.schema
    .createTable('inventory_parameters')
    .addColumn('pid', 'text', (c) => c.primaryKey().references('products.pid').onDelete('cascade'))
    .addColumn('lead_time_weeks', sql`numeric(8,2)`)
    .addColumn('review_period_weeks', sql`numeric(8,2)`)
    .addColumn('replenishment_frequency_weeks', sql`numeric(8,2)`)
    .addColumn('service_level_target', sql`numeric(5,2)`)
    .addColumn('safety_stock_units', 'double precision')
    .addColumn('override_oul_units', 'integer')
    .addColumn('override_reason', 'text')
    .addColumn('override_comments', 'text')
    .addColumn('override_user', 'text')
    .addColumn('override_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'inventory_parameters',
    'audit_log',
    'plan_versions',
    'sales_history',
    'demand_records',
    'products',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
