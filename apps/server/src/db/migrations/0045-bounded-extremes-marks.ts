import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** Summed record columns whose group sums are kept (demand_week_totals' minus P1/P2). */
const SUMMED = [
  'act_bkg_units',
  'act_bkg_cost',
  'act_rev_dlrs',
  'naive_fcst_units',
  'ensemble_fcst_units',
  'rev_pln_ovrd_units',
  'prelim_pln_units',
  'prelim_pln_cost',
  'prelim_pln_rev_dlrs',
  'sop_pln_ovrd_units',
  'final_pln_units',
  'final_bk_pln_cost',
  'final_pln_rev_dlrs',
  'delta_prelim_to_final_pln_cost',
  'delta_prelim_to_final_pln_units',
  'delta_prelim_to_final_pln_rev_dlrs',
] as const;

const PERCENTS = ['rev_pln_ovrd_percent', 'sop_pln_ovrd_percent'] as const;

const FIGURES = [...SUMMED, ...PERCENTS, 'last_updated_at'] as const;

/**
 * The products of a statement's rows whose figures changed: for an update, rows paired on the
 * record key, where a row without its pair (a record moved to another week) changed too.
 */
const CHANGED = {
  INSERT: `select distinct pid from new_rows`,
  DELETE: `select distinct pid from old_rows`,
  UPDATE: `select distinct coalesce(n.pid, o.pid) from old_rows o
    full join new_rows n on n.pid = o.pid and n.week_start = o.week_start
    where n.pid is null or o.pid is null
      or (${FIGURES.map((c) => `n.${c}`).join(', ')}) is distinct from (${FIGURES.map((c) => `o.${c}`).join(', ')})`,
};

/** The statement trigger's function, around how it finds the changed products and notes them. */
const onRecordsFunction = (body: string): string =>
  `create or replace function demand_product_extremes_on_records() returns trigger language plpgsql as $fn$
      declare
        changed text[];
      begin
        if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
          return null;
        end if;
        if tg_op = 'INSERT' then
          execute $q$select array(${CHANGED.INSERT})$q$ into changed;
        elsif tg_op = 'UPDATE' then
          execute $q$select array(${CHANGED.UPDATE})$q$ into changed;
        else
          execute $q$select array(${CHANGED.DELETE})$q$ into changed;
        end if;
        ${body}
        return null;
      end $fn$`;

/** The statement trigger's function as this migration defines it: it notes every changed product. */
const ON_RECORDS = onRecordsFunction(`if cardinality(changed) > 0 then
          perform note_product_extremes(changed);
        end if;`);

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
const perSchema: ProductLockKey = (pid) => `hashtext(current_schema() || '/' || ${pid})`;

/**
 * A stale product's mark (migrations 0032, 0035) carries bounds on how far the writes since its
 * last refresh can have moved its extremes, so that a figure-sorted page reads a stale product
 * only when those bounds say it may reach the page (ADR 0008's second amendment).
 *
 * Before, every stale product was a candidate whatever its values: right after a spread over
 * 5,000 products, until the background refresher had drained them (~13 s at 2.6 ms a product), an
 * original-table page sorted by Final_Pln_Units read the 780,000 records of those products (1.7 s
 * at 100,000 × 156, 24 ms once refreshed).
 *
 * What a statement writing more than 32 products now keeps per product, summed over the writes
 * since the refresh (or the widest of them), for the figures it moved (null: none moved them):
 * - For a summed figure, `<c>_up` and `<c>_down`: the sum of its records' rises and of their
 *   falls (a null counted as 0). Any group's sum moved by no more than those, at every drill-down,
 *   and a group that was null or new started from 0; so its largest sum is at most
 *   greatest(kept largest, 0) + up and its smallest at least least(kept smallest, 0) + down.
 * - For a percent and the latest update, `<c>_hi` and `<c>_lo`: the largest and smallest value
 *   written. A group's weighted percent (positive weights) and its latest update lie between its
 *   records' smallest and largest values, so within the kept week extremes widened by these.
 * A mark set by note_product_extremes (an import's new products, written with the triggers off)
 * knows no changes and stays unbounded (`bounded` false): such a product is always a candidate,
 * as every stale product was before.
 *
 * refresh_stale_product_extremes gains an overload for given products: a sorted page refreshes
 * the stale products it had to read, not the first 16 by PID.
 */

/** Figures whose groups are bounded by the values written (percents, the latest update). */
const VALUED = [...PERCENTS, 'last_updated_at'] as const;

const BOUND_COLUMNS = [
  ...SUMMED.flatMap((c) => [`${c}_up`, `${c}_down`]),
  ...VALUED.flatMap((c) => [`${c}_hi`, `${c}_lo`]),
];

/** The figures in the order of `moved` ($2 below): whether the statement moved any value of each. */
const MOVABLE = [...SUMMED, ...VALUED];
const movedOf = (c: string) => `$2[${MOVABLE.indexOf(c as (typeof MOVABLE)[number]) + 1}]`;
const typeOf = (c: string) => (c === 'last_updated_at' ? 'timestamptz' : 'numeric');

/** A figure's values differ between an old row o and a new row n (one of them may be missing). */
const differs = (c: string) => `n.${c} is distinct from o.${c}`;

/**
 * The products whose figures the statement changed (`changed`, as migration 0032 finds them), and
 * whether it moved any value of each figure (`moved`), in one pass: the marks compute and store
 * the bounds of the moved figures alone (a spread moves 8 of the 19), null standing for none.
 */
const CHANGED_AND_MOVED = {
  INSERT: `select array(select distinct pid from new_rows),
      array[${MOVABLE.map((c) => `bool_or(n.${c} is not null)`).join(', ')}]
    from new_rows n`,
  DELETE: `select array(select distinct pid from old_rows),
      array[${MOVABLE.map((c) => `bool_or(o.${c} is not null)`).join(', ')}]
    from old_rows o`,
  UPDATE: `select coalesce(array_agg(distinct x.pid) filter (where x.changed), '{}'),
      array[${MOVABLE.map((_, i) => `bool_or(x.m${i})`).join(', ')}]
    from (
      select coalesce(n.pid, o.pid) as pid, ${MOVABLE.map((c, i) => `${differs(c)} as m${i}`).join(', ')},
        n.pid is null or o.pid is null or ${MOVABLE.map(differs).join(' or ')} as changed
      from old_rows o full join new_rows n on n.pid = o.pid and n.week_start = o.week_start) x`,
};

/**
 * Each written record's change `d` in the moved figures: a summed figure's rise (or fall), a valued
 * figure's new value. The changed products ($1) are hashed: `= any($1)` compared each row with the
 * whole array (4,000 rows × 4,000 products: 370 ms).
 */
const CHANGES = {
  INSERT: `select n.pid, ${MOVABLE.map((c) => `case when ${movedOf(c)} then ${SUMMED.includes(c as never) ? `coalesce(n.${c}::numeric, 0)` : `n.${c}`} end as ${c}`).join(', ')}
    from new_rows n where n.pid in (select unnest($1::text[]))`,
  DELETE: `select o.pid, ${MOVABLE.map((c) => (SUMMED.includes(c as never) ? `case when ${movedOf(c)} then -coalesce(o.${c}::numeric, 0) end as ${c}` : `null::${typeOf(c)} as ${c}`)).join(', ')}
    from old_rows o where o.pid in (select unnest($1::text[]))`,
  UPDATE: `select coalesce(n.pid, o.pid) as pid, ${MOVABLE.map(
    (c) =>
      `case when ${movedOf(c)} then ${SUMMED.includes(c as never) ? `coalesce(n.${c}::numeric, 0) - coalesce(o.${c}::numeric, 0)` : `n.${c}`} end as ${c}`,
  ).join(', ')}
    from old_rows o full join new_rows n on n.pid = o.pid and n.week_start = o.week_start
    where coalesce(n.pid, o.pid) in (select unnest($1::text[]))`,
};

/** Marks the changed products ($1) with the bounds of this statement's changes, added to any mark's. */
const markBounded = (changes: string) => `
  insert into demand_product_extremes_stale as s (pid, mark, bounded, ${BOUND_COLUMNS.join(', ')})
  select d.pid, txid_current(), true, ${[
    ...SUMMED.flatMap((c) => [
      `sum(d.${c}) filter (where d.${c} > 0)`,
      `sum(d.${c}) filter (where d.${c} < 0)`,
    ]),
    ...VALUED.flatMap((c) => [`max(d.${c})`, `min(d.${c})`]),
  ].join(', ')}
  from (${changes}) d
  where exists (select 1 from products p where p.pid = d.pid)
  group by d.pid order by d.pid
  on conflict (pid) do update set mark = excluded.mark, bounded = s.bounded and excluded.bounded, ${[
    ...SUMMED.flatMap((c) => [
      `${c}_up = nullif(coalesce(s.${c}_up, 0) + coalesce(excluded.${c}_up, 0), 0)`,
      `${c}_down = nullif(coalesce(s.${c}_down, 0) + coalesce(excluded.${c}_down, 0), 0)`,
    ]),
    ...VALUED.flatMap((c) => [
      `${c}_hi = greatest(s.${c}_hi, excluded.${c}_hi)`,
      `${c}_lo = least(s.${c}_lo, excluded.${c}_lo)`,
    ]),
  ].join(', ')}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Marks that exist stay unbounded: nothing says what moved their products.
  await sql
    .raw(
      `alter table demand_product_extremes_stale add column bounded boolean not null default false, ${[
        ...SUMMED.flatMap((c) => [`add column ${c}_up numeric`, `add column ${c}_down numeric`]),
        ...PERCENTS.flatMap((c) => [`add column ${c}_hi numeric`, `add column ${c}_lo numeric`]),
        'add column last_updated_at_hi timestamptz, add column last_updated_at_lo timestamptz',
      ].join(', ')}`,
    )
    .execute(db);
  await sql.raw(noteProductExtremes(perSchema, ', bounded = false')).execute(db);
  // A sorted page refreshes the stale products it had to read, not the first ones by PID. Both
  // find the marks they clear once: PostgreSQL estimated one mark and ran the locking subquery
  // once per mark, over the dead versions that marks updated by every big write leave until a
  // vacuum (4 products refreshed with 97 marks and 7,959 dead versions: 274 ms to clear, not 3).
  await sql.raw(refreshStaleProductExtremes(perSchema, { isDeleteOnce: true })).execute(db);
  await sql.raw(refreshStaleProductExtremes(perSchema, { among: true, isDeleteOnce: true })).execute(db);
  await sql
    .raw(
      `create or replace function demand_product_extremes_on_records() returns trigger language plpgsql as $fn$
      declare
        changed text[];
        moved boolean[];
      begin
        if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
          return null;
        end if;
        if tg_op = 'INSERT' then
          execute $q$${CHANGED_AND_MOVED.INSERT}$q$ into changed, moved;
        elsif tg_op = 'UPDATE' then
          execute $q$${CHANGED_AND_MOVED.UPDATE}$q$ into changed, moved;
        else
          execute $q$${CHANGED_AND_MOVED.DELETE}$q$ into changed, moved;
        end if;
        if cardinality(changed) = 0 then
          return null;
        elsif cardinality(changed) <= ${REFRESHED_AT_ONCE} then
          perform note_product_extremes(changed);
        elsif tg_op = 'INSERT' then
          execute $q$${markBounded(CHANGES.INSERT)}$q$ using changed, moved;
        elsif tg_op = 'UPDATE' then
          execute $q$${markBounded(CHANGES.UPDATE)}$q$ using changed, moved;
        else
          execute $q$${markBounded(CHANGES.DELETE)}$q$ using changed, moved;
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(ON_RECORDS).execute(db);
  await sql.raw(noteProductExtremes(perSchema)).execute(db);
  await sql.raw(refreshStaleProductExtremes(perSchema)).execute(db);
  await sql`drop function refresh_stale_product_extremes(integer, text[])`.execute(db);
  await sql
    .raw(
      `alter table demand_product_extremes_stale drop column bounded, ${BOUND_COLUMNS.map(
        (c) => `drop column ${c}`,
      ).join(', ')}`,
    )
    .execute(db);
}
