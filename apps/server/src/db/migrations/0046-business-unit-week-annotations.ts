import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** The records of transition table `rows` that carry a comment or a reason code. */
const annotated = (rows: string) =>
  `select pid, week_start, comments, reason_code from ${rows}
      where comments is not null or reason_code is not null`;

/**
 * The annotations digest per business unit and week: each distinct comment and reason code of a
 * client's business unit in a week, with the grid position (PID, then week) of its first record.
 *
 * A business-unit row by week read the weekly digest per slice (migration 0044): a row per slice of
 * the business unit and distinct note. A slice's distinct notes in a week grow with its products
 * until they reach the notes planners use, so a business unit × week page sorted by a figure read
 * more digest rows the more products there were, and its time grew with them. Per business unit
 * and week it reads at most the distinct notes in use, whatever the number of products.
 *
 * Kept from the weekly slice digest, and only for the weeks a statement changed: the slice digests
 * are rebuilt whole (0033, 0034), which says nothing about which weeks moved, so these triggers
 * take the weeks from the records themselves. They fire after 0033's triggers of the same event,
 * which refresh the slice digests first: PostgreSQL fires a relation's triggers of one event and
 * timing in the order of their names, and `annotation_unit_digest_*` follows `annotation_digest_*`.
 * A week's rows are the union of its slices' weekly rows (the smallest first position of each
 * note), read by key from the slices that have notes at all (0033's digest names them).
 *
 * A product that moves to another business unit (or client), or goes, refreshes every week of its
 * old and new business unit; one that changes family or region within its business unit changes
 * none of them. TRUNCATE empties the digest with the weekly slice digest. The seed disables the
 * records' insert trigger during its load and rebuilds once (annotation_unit_digest_rebuild), as it
 * does for 0033's digest; `planning.skip_rollup` is honoured as 0033 honours it.
 */

/** Advisory lock class of a business unit's digest refresh (0033's slices are 7,333). */
const UNIT_LOCK_CLASS = 7_335;

/** The keys as parallel arrays ($1 clients, $2 business units[, $3 weeks]), without repeats. */
const UNITS = 'select distinct * from unnest($1::text[], $2::text[]) as k(client_id, bu)';
const UNIT_WEEKS =
  'select distinct * from unnest($1::text[], $2::text[], $3::text[]) as k(client_id, bu, period)';

/**
 * The digest rows of keys `keys` (client_id, bu[, period]) from the weekly slice digest, each slice
 * of a business unit read by its primary key: the whole slice when `byWeek` is false, else its week.
 */
const unitDigestOf = (keys: string, byWeek: boolean): string => `
  select k.client_id, k.bu, d.period, d.kind, d.value, min(d.first_pos)
  from (${keys}) k
  cross join lateral (
    select distinct a.pf, a.region from demand_annotation_digest a
    where a.client_id = k.client_id and a.bu = k.bu) s
  cross join lateral (
    select d.period, d.kind, d.value, d.first_pos from demand_annotation_period_digest d
    where d.drill_down = 'weekly' and d.client_id = k.client_id and d.bu = k.bu
      and d.pf = s.pf and d.region = s.region${byWeek ? ' and d.period = k.period' : ''}
    offset 0) d
  group by 1, 2, 3, 4, 5`;

const REFRESH_FUNCTION = `
  create function annotation_unit_digest_refresh(client_ids text[], bus text[], periods text[] default null)
  returns void language plpgsql as $fn$
  begin
    -- One writer per business unit at a time, in one order, after the slices' locks: a second
    -- statement then reads the first one's committed slice rows (each statement of a volatile
    -- function sees what committed before it) instead of replacing them with an older view.
    perform pg_advisory_xact_lock(${UNIT_LOCK_CLASS}, h) from (
      select distinct hashtext(current_schema() || '/' || concat_ws(chr(1), client_id, bu)) as h
      from unnest(client_ids, bus) as k(client_id, bu) order by h) l;
    if periods is null then
      execute $q$delete from demand_annotation_unit_digest d using (${UNITS}) k
        where (d.client_id, d.bu) = (k.client_id, k.bu)$q$ using client_ids, bus;
      execute $q$insert into demand_annotation_unit_digest ${unitDigestOf(UNITS, false)}$q$
        using client_ids, bus;
    else
      execute $q$delete from demand_annotation_unit_digest d using (${UNIT_WEEKS}) k
        where (d.client_id, d.bu, d.period) = (k.client_id, k.bu, k.period)$q$ using client_ids, bus, periods;
      execute $q$insert into demand_annotation_unit_digest ${unitDigestOf(UNIT_WEEKS, true)}$q$
        using client_ids, bus, periods;
    end if;
  end $fn$`;

const REBUILD_FUNCTION = `
  create function annotation_unit_digest_rebuild() returns void language plpgsql as $fn$
  begin
    delete from demand_annotation_unit_digest;
    insert into demand_annotation_unit_digest
      select client_id, bu, period, kind, value, min(first_pos) from demand_annotation_period_digest
      where drill_down = 'weekly' group by 1, 2, 3, 4, 5;
  end $fn$`;

/** Records whose notes a statement changed, per event (a record that moved week counts twice). */
const CHANGED: Record<'INSERT' | 'UPDATE' | 'DELETE', string> = {
  INSERT: annotated('new_rows'),
  UPDATE: `(${annotated('old_rows')} except ${annotated('new_rows')})
    union all (${annotated('new_rows')} except ${annotated('old_rows')})`,
  DELETE: annotated('old_rows'),
};

/** The business-unit weeks of changed records `changed` as three arrays. */
const unitWeeksOf = (changed: string) => `
  select coalesce(array_agg(client_id), '{}'), coalesce(array_agg(bu), '{}'), coalesce(array_agg(period), '{}')
  from (select distinct p.client_id, p.bu, to_char(c.week_start, 'YYYY-MM-DD') as period
    from (${changed}) c join products p on p.pid = c.pid) k`;

const ON_RECORDS_FUNCTION = `
  create function annotation_unit_digest_on_records() returns trigger language plpgsql as $fn$
  declare
    client_ids text[]; bus text[]; periods text[];
  begin
    if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
      return null;
    end if;
    if tg_op = 'INSERT' then
      execute $q$${unitWeeksOf(CHANGED.INSERT)}$q$ into client_ids, bus, periods;
    elsif tg_op = 'UPDATE' then
      execute $q$${unitWeeksOf(CHANGED.UPDATE)}$q$ into client_ids, bus, periods;
    else
      execute $q$${unitWeeksOf(CHANGED.DELETE)}$q$ into client_ids, bus, periods;
    end if;
    if cardinality(client_ids) > 0 then
      perform annotation_unit_digest_refresh(client_ids, bus, periods);
    end if;
    return null;
  end $fn$`;

const ON_PRODUCTS_FUNCTION = `
  create function annotation_unit_digest_on_products() returns trigger language plpgsql as $fn$
  begin
    perform annotation_unit_digest_refresh(array[old.client_id], array[old.bu]);
    if tg_op = 'UPDATE' then
      perform annotation_unit_digest_refresh(array[new.client_id], array[new.bu]);
    end if;
    return null;
  end $fn$`;

const ON_TRUNCATE_FUNCTION = `
  create function annotation_unit_digest_on_truncate() returns trigger language plpgsql as $fn$
  begin truncate demand_annotation_unit_digest; return null; end $fn$`;

const RECORD_EVENTS = [
  ['insert', 'new table as new_rows'],
  ['update', 'old table as old_rows new table as new_rows'],
  ['delete', 'old table as old_rows'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table demand_annotation_unit_digest (
    client_id text not null, bu text not null,
    period text not null,
    kind text not null check (kind in ('comment', 'code')),
    value text not null,
    first_pos text collate "C" not null,
    primary key (client_id, bu, period, kind, value))`.execute(db);
  for (const fn of [
    REFRESH_FUNCTION,
    REBUILD_FUNCTION,
    ON_RECORDS_FUNCTION,
    ON_PRODUCTS_FUNCTION,
    ON_TRUNCATE_FUNCTION,
  ])
    await sql.raw(fn).execute(db);
  for (const [event, referencing] of RECORD_EVENTS) {
    await sql
      .raw(
        `create trigger annotation_unit_digest_${event} after ${event} on demand_records
         referencing ${referencing} for each statement execute function annotation_unit_digest_on_records()`,
      )
      .execute(db);
  }
  await sql`create trigger annotation_unit_digest_product_update after update of client_id, bu on products
    for each row when ((old.client_id, old.bu) is distinct from (new.client_id, new.bu))
    execute function annotation_unit_digest_on_products()`.execute(db);
  await sql`create trigger annotation_unit_digest_product_delete after delete on products
    for each row execute function annotation_unit_digest_on_products()`.execute(db);
  await sql`create trigger annotation_unit_digest_truncate after truncate on demand_annotation_period_digest
    for each statement execute function annotation_unit_digest_on_truncate()`.execute(db);
  // Backfill: an existing database's annotations.
  await sql`select annotation_unit_digest_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists annotation_unit_digest_truncate on demand_annotation_period_digest`.execute(
    db,
  );
  await sql`drop trigger if exists annotation_unit_digest_product_delete on products`.execute(db);
  await sql`drop trigger if exists annotation_unit_digest_product_update on products`.execute(db);
  for (const [event] of RECORD_EVENTS)
    await sql.raw(`drop trigger if exists annotation_unit_digest_${event} on demand_records`).execute(db);
  for (const fn of [
    'annotation_unit_digest_on_truncate()',
    'annotation_unit_digest_on_products()',
    'annotation_unit_digest_on_records()',
    'annotation_unit_digest_rebuild()',
    'annotation_unit_digest_refresh(text[], text[], text[])',
  ])
    await sql.raw(`drop function if exists ${fn}`).execute(db);
  await sql`drop table if exists demand_annotation_unit_digest`.execute(db);
}
