import { sql, type Kysely } from 'kysely';

/**
 * The grid reads a page's comments and reason codes from the records, keyed by the page's
 * products and weeks, so the three note digests (per slice, per slice and period, per business
 * unit and week) and what kept them go: their tables (with the triggers on them), the triggers on
 * demand_records and products, and their functions (with them their advisory lock classes 7333
 * and 7335; 7334 stays, the sort extremes take it too).
 *
 * The annotated records' two partial indexes now carry the comment and the reason code, so that
 * the page's read is answered from the index alone (the records' pages are never visited for it).
 */

const TRIGGERS: ReadonlyArray<[trigger: string, table: string]> = [
  ['annotation_digest_insert', 'demand_records'],
  ['annotation_digest_update', 'demand_records'],
  ['annotation_digest_delete', 'demand_records'],
  ['annotation_digest_truncate', 'demand_records'],
  ['annotation_unit_digest_insert', 'demand_records'],
  ['annotation_unit_digest_update', 'demand_records'],
  ['annotation_unit_digest_delete', 'demand_records'],
  ['annotation_digest_product_update', 'products'],
  ['annotation_digest_product_delete', 'products'],
  ['annotation_unit_digest_product_update', 'products'],
  ['annotation_unit_digest_product_delete', 'products'],
];

const TABLES = [
  'demand_annotation_unit_digest',
  'demand_annotation_period_digest',
  'demand_annotation_digest',
];

const FUNCTIONS = [
  'annotation_digest_on_products()',
  'annotation_digest_on_records()',
  'annotation_digest_on_truncate()',
  'annotation_digest_rebuild()',
  'annotation_digest_refresh(text[], text[], text[], text[])',
  'annotation_period_digest_on_digest()',
  'annotation_period_digest_on_truncate()',
  'annotation_period_digest_rebuild()',
  'annotation_period_digest_refresh(text[], text[], text[], text[])',
  'annotation_period_digest_forget(text[], text[], text[], text[])',
  'annotation_unit_digest_on_products()',
  'annotation_unit_digest_on_records()',
  'annotation_unit_digest_on_truncate()',
  'annotation_unit_digest_rebuild()',
  'annotation_unit_digest_refresh(text[], text[], text[])',
];

const ANNOTATED = '(comments is not null or reason_code is not null)';
/** The annotated records' partial indexes, by week and by product, with their keys. */
const ANNOTATED_INDEXES = [
  ['demand_records_annotated', 'week_start, pid'],
  ['demand_records_annotated_by_product', 'pid, week_start'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of TRIGGERS) {
    await sql`drop trigger if exists ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
  }
  for (const table of TABLES) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  for (const fn of FUNCTIONS) await sql.raw(`drop function if exists ${fn}`).execute(db);
  for (const [index, key] of ANNOTATED_INDEXES) {
    await sql.raw(`drop index if exists ${index}`).execute(db);
    await sql
      .raw(
        `create index ${index} on demand_records (${key}) include (comments, reason_code) where ${ANNOTATED}`,
      )
      .execute(db);
  }
}

export async function down(): Promise<void> {
  // The digests' tables, triggers and functions are those of migrations 0033, 0034, 0044, 0046
  // and 0057 together; restoring them means restoring a database from before this migration.
  throw new Error('0093-notes-from-records cannot be undone: restore a backup taken before it');
}
