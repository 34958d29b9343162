import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** The channel migration 0026's trigger notifies on. */
export const RECORD_CHANGES_CHANNEL = 'planning_record_changes';

/** The schema this process's pool works in: NOTIFY reaches the whole database, tests share one. */
export async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
