import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';
import { KEPT_TABLES, columnsOf, isGrouped, rowsSql } from '../../src/read-model';
import { rowsDiffering } from './table-differences';

export type TableCheck = { table: string; rows: number; differing: number };

class RolledBack extends Error {}

/**
 * Every kept table of the read-model registry compared with its rebuild, as values (EXCEPT both
 * ways): a grouped table with its rows computed from its source, a table with a rebuild function
 * with a copy of itself rebuilt in place. Rows a declaration says may differ (stale extremes) are
 * left out on both sides. Runs in a transaction that is rolled back, so the database is unchanged.
 */
export async function keptTablesVersusRebuild(db: Kysely<Database>): Promise<TableCheck[]> {
  const checks: TableCheck[] = [];
  await db
    .transaction()
    .execute(async (trx) => {
      for (const table of KEPT_TABLES) {
        const kept = (from: string) =>
          `(select * from ${from}${table.ignoredRows ? ` where not (${table.ignoredRows})` : ''})`;
        let differing: ReturnType<typeof rowsDiffering>;
        if (isGrouped(table)) {
          const columns = columnsOf(table).join(', ');
          differing = rowsDiffering(
            `(select ${columns} from ${table.name}${table.ignoredRows ? ` where not (${table.ignoredRows})` : ''}) k`,
            `(${rowsSql(table)}) r`,
          );
        } else {
          await sql
            .raw(`create temp table kept_copy on commit drop as select * from ${table.name}`)
            .execute(trx);
          await sql.raw(table.rebuild).execute(trx);
          differing = rowsDiffering(`${kept('kept_copy')} k`, `${kept(table.name)} r`);
        }
        const { rows } = await sql<{ rows: number; differing: number }>`
          select (select count(*) from ${sql.table(table.name)})::int as rows, ${differing} as differing`.execute(
          trx,
        );
        checks.push({ table: table.name, ...rows[0]! });
        if (!isGrouped(table)) await sql`drop table kept_copy`.execute(trx);
      }
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return checks;
}
