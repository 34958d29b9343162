import { sql, type Kysely } from 'kysely';
import { addToTotals, recomputeLatest, refreshProductTotals, withProduct } from './0002-planning-grid';

/**
 * The record roll-up trigger of migration 0002, its statements now run through EXECUTE.
 *
 * PL/pgSQL prepares each static statement once per connection and keeps the plan. The trigger's
 * statements have no parameters, so PostgreSQL never re-plans them (plan_cache_mode cannot help):
 * the plan is made for the transition tables of the first call on that connection. A pooled
 * connection whose first call was a one-record edit planned nested loops for one row, and then
 * ran an 18,000-row forecast write with that plan: 221 s instead of 1.1 s on the local
 * PostgreSQL. EXECUTE plans every call for the rows it really has; planning costs about a
 * millisecond per statement.
 */
const run = (statements: string): string =>
  statements
    .split(';')
    .filter((statement) => statement.trim() !== '')
    .map((statement) => `execute $q$${statement}$q$;`)
    .join('\n');

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create or replace function demand_week_totals_on_records() returns trigger language plpgsql as $fn$
      begin
        if tg_op = 'INSERT' then
          ${run(addToTotals(withProduct('new_rows', 1)))}
          ${run(refreshProductTotals('select pid from new_rows'))}
        elsif tg_op = 'UPDATE' then
          ${run(addToTotals(`${withProduct('old_rows', -1)} union all ${withProduct('new_rows', 1)}`))}
          ${run(
            recomputeLatest(`select distinct p.client_id, p.bu, p.pf, p.region, o.week_start
            from old_rows o join new_rows n on n.pid = o.pid and n.week_start = o.week_start
            join products p on p.pid = o.pid
            where o.last_updated_at > n.last_updated_at
               or (o.last_updated_at is not null and n.last_updated_at is null)`),
          )}
          ${run(
            refreshProductTotals(`select o.pid from old_rows o join new_rows n
            on n.pid = o.pid and n.week_start = o.week_start where o.has_data <> n.has_data`),
          )}
        else
          ${run(addToTotals(withProduct('old_rows', -1)))}
          ${run(
            recomputeLatest(`select distinct p.client_id, p.bu, p.pf, p.region, o.week_start
            from old_rows o join products p on p.pid = o.pid where o.last_updated_at is not null`),
          )}
          execute $q$delete from demand_week_totals where record_count = 0$q$;
          ${run(refreshProductTotals('select pid from old_rows'))}
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
}

/**
 * Nothing to undo: the EXECUTE form computes the same totals as 0002's static one, and rolling
 * back 0002 drops the function.
 */
export async function down(): Promise<void> {}
