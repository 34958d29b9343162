import { sql, type Kysely } from 'kysely';

/**
 * Year over Year compares with the same quarter a year earlier, which the demand records
 * (52 weeks, half of them past) do not reach, so the dashboard reads those weeks from
 * sales_history. Its primary key leads with pid; this index answers "every product's sales of
 * these weeks" without reading the whole history (docs/metrics.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index sales_history_week on sales_history (week_start, pid) include (units)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sales_history_week`.execute(db);
}
