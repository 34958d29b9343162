import { sql, type Kysely } from 'kysely';

/**
 * Stale sort extremes (migration 0032) that a save never waits for.
 *
 * Before, a refresh took the stale rows with `delete … for update skip locked` and held them while
 * it recomputed the products: 200 products a statement, which the server's JIT compiled for
 * seconds (4.7 s with every threshold at 0). A spread marking one of those products stale waited
 * on its row lock for the whole refresh (1.6 s of a 3.2 s save), and a refresh computed from a
 * snapshot older than a small edit's could overwrite that edit's fresh extremes.
 *
 * Now:
 * - A mark carries the transaction that set it (`mark`). A refresh reads the marks without
 *   locking them, recomputes, and at its end clears only the marks still as it read them, skipping
 *   any a writer holds: a product written meanwhile keeps (or gets back) its mark and is refreshed
 *   again. A writer's upsert meets a refresher's lock only between that delete and its commit.
 * - Products are claimed with a transaction-level advisory lock per product (tried, never waited
 *   for, by refreshes), so two refreshes (a background pass and a sorted page, or two server
 *   processes) never recompute one product at once. A statement that writes few products (≤ 32)
 *   still refreshes them at once, after waiting for that same lock: its snapshot is then newer than
 *   any refresh or small write of those products that came before, so the last to commit is right.
 * - Refreshes run with `jit = off` (a function setting: every caller, background or page, gets it).
 *   Each product is aggregated alone through its primary-key range; compiling never pays (200
 *   products cost 133,000, over the default threshold of 100,000).
 */

/** A statement that writes up to this many products refreshes them at once; more are marked stale. */
export const REFRESHED_AT_ONCE = 32;

/** Advisory lock class of one product's extremes (hash of the PID as the key). */
export const PRODUCT_LOCK_CLASS = 7_334;

/**
 * At most this many products per refresh call: each holds an advisory lock to the commit, and the
 * lock table is shared (64 per connection by default).
 */
const MAX_PER_CALL = 1_000;

/** The advisory lock key of a product's extremes: the hash of its PID (`pid`, an SQL expression). */
export type ProductLockKey = (pid: string) => string;
const productLockKey: ProductLockKey = (pid) => `hashtext(${pid})`;

/**
 * note_product_extremes as this migration defines it, with the product lock key `lockKey`; a mark
 * it sets again on conflict also sets the columns `alsoOnConflict` names (migration 0045's bounds).
 */
export const noteProductExtremes = (lockKey: ProductLockKey, alsoOnConflict = ''): string =>
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
export const refreshStaleProductExtremes = (
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

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0 for the marks that exist: set before any transaction that can still be running.
  await sql`alter table demand_product_extremes_stale add column mark bigint not null default 0`.execute(db);

  await sql.raw(noteProductExtremes(productLockKey)).execute(db);

  await sql.raw(refreshStaleProductExtremes(productLockKey)).execute(db);

  await sql`alter function refresh_product_extremes(text[]) set jit = off`.execute(db);
  // The refresh drops the rows of products left without records by `pid = any(pids)`, which the
  // primary key (drill, pid) cannot serve: a scan of every product's rows per refresh (70–115 ms
  // at 20,000 products, a 200-product batch) that grew with the products.
  await sql`create index demand_product_extremes_pid on demand_product_extremes (pid)`.execute(db);
}

/**
 * Nothing to undo on its own: the functions above read `mark`, and rolling back migration 0032
 * drops the table, its column and the functions.
 */
export async function down(): Promise<void> {}
