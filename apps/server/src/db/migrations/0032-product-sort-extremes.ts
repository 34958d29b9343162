import { sql, type Kysely } from 'kysely';

/**
 * demand_product_extremes: per product and drill-down (w = a week, i.e. the record itself; m, q,
 * y = its months, quarters, years; n = the product whole), the largest and smallest value each
 * sortable figure takes over that product's groups. A grid page sorted by a figure needs the top
 * offset + limit groups; the products whose extreme reaches the K-th best product's extreme hold
 * all of them (each product has a group at its extreme), so only those products' records are read,
 * not every record (docs/adr/0008).
 *
 * Kept exact by its own statement trigger, which recomputes each written product from its records
 * (a product's 156 weeks through the primary key), or, when a statement wrote many products,
 * marks them stale (demand_product_extremes_stale) for sorts to treat as unknown and refresh. P1 and P2 are left out: a publish shifts them
 * for every product with the roll-up triggers off, and a sort by them reads the records as before.
 * Columns are listed here rather than imported so that this migration never changes once shipped.
 */

/** A statement that writes up to this many products refreshes them at once; more are marked stale. */
const REFRESHED_AT_ONCE = 32;

/** Summed record columns whose group sums are kept (demand_week_totals' minus P1/P2). */
export const SUMMED = [
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
export const PERCENTS = ['rev_pln_ovrd_percent', 'sop_pln_ovrd_percent'] as const;
export const FIGURES = [...SUMMED, ...PERCENTS, 'last_updated_at'] as const;

/** Override weight (spec §9) of a record r: final units, else actual units, else 1. */
export const WEIGHT = `(case when r.final_pln_units > 0 then r.final_pln_units::numeric
  when r.act_bkg_units > 0 then r.act_bkg_units::numeric else 1 end)`;

/** Each figure of a group of records r, unrounded (the grid rounds sums and percents to 2 places). */
const GROUP_FIGURES = [
  ...SUMMED.map((c) => `sum(r.${c}) as ${c}`),
  ...PERCENTS.map(
    (c) => `sum(r.${c} * r.weight) / nullif(sum(r.weight) filter (where r.${c} is not null), 0) as ${c}`,
  ),
  'max(r.last_updated_at) as last_updated_at',
];

/** A week's figures are its record's own values (a percent weighted by itself is itself). */
const WEEK_FIGURES = [
  ...SUMMED.map((c) => `r.${c}::numeric`),
  ...PERCENTS.map((c) => `r.${c}`),
  'r.last_updated_at',
];

/**
 * refresh_product_extremes(pids): recomputes the given products' rows from their records and drops
 * the rows of products that have none left (a product without records gets no row: the roll-up's
 * grand total would otherwise give it one, even while its deletion cascades to its records). Each product is aggregated on its own (a lateral over
 * its primary-key range), so memory stays small however many products are refreshed: its weeks
 * as they are, and its months, quarters, years and whole in one sorted pass (a roll-up, since a
 * month lies in one quarter and a quarter in one year), each value converted to numeric once.
 */
export const REFRESH = `
  insert into demand_product_extremes as x (pid, drill, ${FIGURES.flatMap((c) => [`${c}_hi`, `${c}_lo`]).join(', ')})
  select k.pid, e.*
  from (select distinct pid from unnest(pids) as u(pid)
    where exists (select 1 from demand_records r where r.pid = u.pid) order by pid) k
  cross join lateral (
    select g.drill, ${FIGURES.map((c) => `max(g.${c}), min(g.${c})`).join(', ')}
    from (
      select 'w'::"char" as drill, ${WEEK_FIGURES.join(', ')}
      from demand_records r where r.pid = k.pid
      union all
      select (case when grouping(r.m) = 0 then 'm' when grouping(r.q) = 0 then 'q'
          when grouping(r.y) = 0 then 'y' else 'n' end)::"char",
        ${GROUP_FIGURES.join(', ')}
      from (
        select ${SUMMED.map((c) => `r.${c}::numeric as ${c}`).join(', ')}, ${PERCENTS.map((c) => `r.${c}`).join(', ')},
          r.last_updated_at, ${WEIGHT} as weight, date_trunc('year', r.week_start) as y,
          date_trunc('quarter', r.week_start) as q, date_trunc('month', r.week_start) as m
        from demand_records r where r.pid = k.pid) r
      group by rollup (r.y, r.q, r.m)) g
    group by g.drill) e
  on conflict (pid, drill) do update set
    ${FIGURES.flatMap((c) => [`${c}_hi = excluded.${c}_hi`, `${c}_lo = excluded.${c}_lo`]).join(',\n    ')};
  delete from demand_product_extremes x
  where x.pid = any(pids) and not exists (select 1 from demand_records r where r.pid = x.pid);`;

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
export const ON_RECORDS = onRecordsFunction(`if cardinality(changed) > 0 then
          perform note_product_extremes(changed);
        end if;`);

export async function up(db: Kysely<unknown>): Promise<void> {
  // Few columns change per update and none is indexed, so most updates stay on their page (HOT).
  await sql
    .raw(
      `create table demand_product_extremes (
        pid text not null references products (pid) on delete cascade,
        drill "char" not null,
        ${SUMMED.flatMap((c) => [`${c}_hi numeric`, `${c}_lo numeric`]).join(', ')},
        ${PERCENTS.flatMap((c) => [`${c}_hi numeric`, `${c}_lo numeric`]).join(', ')},
        last_updated_at_hi timestamptz, last_updated_at_lo timestamptz,
        primary key (drill, pid)) with (fillfactor = 70)`,
    )
    .execute(db);

  await sql
    .raw(
      `create function refresh_product_extremes(pids text[]) returns void language plpgsql as $fn$
      begin ${REFRESH}
      end $fn$`,
    )
    .execute(db);

  // Products written by a statement that touched many (a spread, an import) are only marked
  // stale: refreshing costs a few milliseconds per product, too much inside a 5,000-record save.
  // A sort treats a stale product as one that may hold its page, and refreshes a few per page.
  await sql`create table demand_product_extremes_stale (
    pid text primary key references products (pid) on delete cascade)`.execute(db);
  await sql
    .raw(
      `create function note_product_extremes(pids text[]) returns void language plpgsql as $fn$
      begin
        if cardinality(pids) <= ${REFRESHED_AT_ONCE} then
          perform refresh_product_extremes(pids);
        else
          -- An update, not a no-op, on conflict: it takes the row lock, so a refresh that is
          -- draining this product waits for the writer, or the writer for it (then re-marks it).
          insert into demand_product_extremes_stale (pid)
          select distinct pid from unnest(pids) as u(pid)
          where exists (select 1 from products p where p.pid = u.pid) order by pid
          on conflict (pid) do update set pid = excluded.pid;
        end if;
      end $fn$`,
    )
    .execute(db);
  // Refreshes up to max_products stale products, skipping those a writer holds; how many it did.
  await sql`create function refresh_stale_product_extremes(max_products integer) returns integer
    language plpgsql as $fn$
    declare
      picked text[];
    begin
      with taken as (
        delete from demand_product_extremes_stale where pid in (
          select pid from demand_product_extremes_stale order by pid limit max_products
          for update skip locked)
        returning pid)
      select array_agg(pid) into picked from taken;
      if picked is null then
        return 0;
      end if;
      perform refresh_product_extremes(picked);
      return cardinality(picked);
    end $fn$`.execute(db);

  // Its own trigger function: the roll-up trigger of migrations 0002/0025 belongs to the totals.
  // It stands aside when planning.skip_rollup is on, as that one does: the import then notes its
  // new products itself, and a publish moves only P1/P2, which are not kept here.
  await sql.raw(ON_RECORDS).execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger demand_product_extremes_${event} after ${event} on demand_records
         referencing ${referencing} for each statement execute function demand_product_extremes_on_records()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function demand_product_extremes_on_truncate() returns trigger language plpgsql as $fn$
      begin truncate demand_product_extremes, demand_product_extremes_stale; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_product_extremes_truncate after truncate on demand_records
    for each statement execute function demand_product_extremes_on_truncate()`.execute(db);

  // The records that exist already (a kept bench schema of millions of records) are summarised once.
  await sql`select refresh_product_extremes(array(select pid from demand_product_totals))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists demand_product_extremes, demand_product_extremes_stale`.execute(db);
  await sql`drop function if exists note_product_extremes(text[])`.execute(db);
  await sql`drop function if exists refresh_stale_product_extremes(integer)`.execute(db);
  await sql`drop function if exists demand_product_extremes_on_records() cascade`.execute(db);
  await sql`drop function if exists demand_product_extremes_on_truncate() cascade`.execute(db);
  await sql`drop function if exists refresh_product_extremes(text[])`.execute(db);
}
