import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** A statement that writes up to this many products refreshes them at once; more are marked stale. */
const REFRESHED_AT_ONCE = 32;

/** Advisory lock class of one product's extremes (hash of the PID as the key). */
const PRODUCT_LOCK_CLASS = 7_334;

/**
 * At most this many products per refresh call: each holds an advisory lock to the commit, and the
 * lock table is shared (64 per connection by default).
 */
const MAX_PER_CALL = 1_000;

/** The advisory lock key of a product's extremes: the hash of its PID (`pid`, an SQL expression). */
type ProductLockKey = (pid: string) => string;

/**
 * note_product_extremes as this migration defines it, with the product lock key `lockKey`; a mark
 * it sets again on conflict also sets the columns `alsoOnConflict` names (migration 0045's bounds).
 */
const noteProductExtremes = (lockKey: ProductLockKey, alsoOnConflict = ''): string =>
  `create or replace function note_product_extremes(pids text[]) returns void language plpgsql as $fn$
      begin
        if cardinality(pids) <= ${REFRESHED_AT_ONCE} then
          -- Waits for a refresh or another small write of these products (hash order: no deadlock
          -- between two of them); the refresh below then reads their records after it.
          perform pg_advisory_xact_lock(${PRODUCT_LOCK_CLASS}, h)
          from (select distinct ${lockKey('pid')} as h from unnest(pids) as u(pid) order by h) l;
          perform refresh_product_extremes(pids);
        else
          insert into demand_product_extremes_stale as s (pid, mark)
          select distinct pid, txid_current() from unnest(pids) as u(pid)
          where exists (select 1 from products p where p.pid = u.pid) order by pid
          on conflict (pid) do update set mark = excluded.mark${alsoOnConflict};
        end if;
      end $fn$`;

/**
 * refresh_stale_product_extremes as this migration defines it, with the product lock key `lockKey`;
 * migration 0045 adds `among` (an overload that refreshes only the stale products among `pids`)
 * and `isDeleteOnce` (the marks it clears are found once, not once per mark: see there).
 */
const refreshStaleProductExtremes = (
  lockKey: ProductLockKey,
  { among = false, isDeleteOnce = false } = {},
): string =>
  `create or replace function refresh_stale_product_extremes(max_products integer${among ? ', pids text[]' : ''}) returns integer
      language plpgsql set jit = off as $fn$
      declare
        picked text[] := '{}';
        marks bigint[] := '{}';
        stale record;
      begin
        for stale in select pid, mark from demand_product_extremes_stale ${among ? 'where pid = any(pids) ' : ''}order by pid loop
          exit when cardinality(picked) >= least(max_products, ${MAX_PER_CALL});
          if pg_try_advisory_xact_lock(${PRODUCT_LOCK_CLASS}, ${lockKey('stale.pid')}) then
            picked := picked || stale.pid;
            marks := marks || stale.mark;
          end if;
        end loop;
        if cardinality(picked) = 0 then
          return 0;
        end if;
        perform refresh_product_extremes(picked);
        -- A mark that moved (a writer committed after the refresh's snapshot) or that a writer
        -- holds (it has not committed yet) stays: its product is refreshed again later.
        delete from demand_product_extremes_stale d where d.pid ${isDeleteOnce ? '= any(array' : 'in '}(
          select s.pid from demand_product_extremes_stale s
          join unnest(picked, marks) as t(pid, mark) on t.pid = s.pid and t.mark = s.mark
          for update of s skip locked)${isDeleteOnce ? ')' : ''};
        return cardinality(picked);
      end $fn$`;

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
