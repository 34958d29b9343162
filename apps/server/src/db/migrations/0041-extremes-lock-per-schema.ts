import { sql, type Kysely } from 'kysely';
import { noteProductExtremes, refreshStaleProductExtremes, type ProductLockKey } from './0035-extremes-marks';

/**
 * A product's extremes lock (migration 0035) keyed by the schema as well as the PID, as the
 * import's lock is. Advisory locks belong to the database, not the schema: where several schemas
 * share one database (the API tests' and the benches' schemas, which seed the same PIDs), a save
 * in one schema waited for a refresh of the same PID in another, and a refresh skipped a product
 * another schema held, so a refresh could claim fewer products than were stale.
 */
export const perSchema: ProductLockKey = (pid) => `hashtext(current_schema() || '/' || ${pid})`;
const perDatabase: ProductLockKey = (pid) => `hashtext(${pid})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(noteProductExtremes(perSchema)).execute(db);
  await sql.raw(refreshStaleProductExtremes(perSchema)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(noteProductExtremes(perDatabase)).execute(db);
  await sql.raw(refreshStaleProductExtremes(perDatabase)).execute(db);
}
