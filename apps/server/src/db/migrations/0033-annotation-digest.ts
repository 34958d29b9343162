import { sql, type Kysely } from 'kysely';

/**
 * The annotations digest: per slice (client, business unit, family, region), each distinct comment
 * and reason code with the grid position of its first record (PID, then week). A family or
 * business-unit row without a drill-down shows its records' distinct annotations in that order, and
 * reading them from the records meant every annotated record of every family on the page: 640 of
 * the default view's 980 ms at 20,000 × 156. The digest holds a few rows per slice instead.
 *
 * Kept by its own statement triggers (the roll-up trigger, migration 0025, belongs to the totals):
 * a statement that changes any record's comment or reason code rebuilds the digest of the slices
 * of the records it touched, from the records. Rebuilding a slice rather than adjusting it keeps
 * "first position" exact when that record loses its comment, and writes that change annotations
 * are few and small (an edit, a batch of notes). A product that moves to another slice, or goes,
 * rebuilds both slices; TRUNCATE empties the digest.
 *
 * The switch `planning.skip_rollup` (migration 0011) is honoured: the two writes that set it change
 * no annotation. A publish moves the P1/P2 columns only, and an import's new SKUs are inserted
 * without comments or reason codes (imports.repository.ts); its updates of existing records run
 * with the switch off, through these triggers.
 */

/** The digest rows of the slices `slices` (a query of client_id, bu, pf, region), from the records. */
const digestOf = (slices: string): string => `
  select p.client_id, p.bu, p.pf, p.region, a.kind, a.value,
    min((r.pid || chr(1) || r.week_start::text) collate "C") as first_pos
  from (${slices}) s
  join products p on (p.client_id, p.bu, p.pf, p.region) = (s.client_id, s.bu, s.pf, s.region)
  join demand_records r on r.pid = p.pid and (r.comments is not null or r.reason_code is not null)
  cross join lateral (values ('comment', btrim(r.comments)), ('code', r.reason_code)) a(kind, value)
  where (a.kind = 'comment' and a.value <> '') or (a.kind = 'code' and a.value is not null)
  group by p.client_id, p.bu, p.pf, p.region, a.kind, a.value`;

/** The records of transition table `rows` that carry a comment or a reason code. */
export const annotated = (rows: string) =>
  `select pid, week_start, comments, reason_code from ${rows}
      where comments is not null or reason_code is not null`;

/** Advisory lock class of a slice's digest rebuild (hash of the slice as the key). */
const SLICE_LOCK_CLASS = 7_333;

/** The slices as four parallel arrays ($1–$4), without repeats. */
const SLICE_ARRAYS = `select distinct * from unnest($1::text[], $2::text[], $3::text[], $4::text[])
  as s(client_id, bu, pf, region)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table demand_annotation_digest (
    client_id text not null, bu text not null, pf text not null, region text not null,
    kind text not null check (kind in ('comment', 'code')),
    value text not null,
    first_pos text collate "C" not null,
    primary key (client_id, bu, pf, region, kind, value))`.execute(db);

  await sql
    .raw(
      `create function annotation_digest_refresh(client_ids text[], bus text[], pfs text[], regions text[])
      returns void language plpgsql as $fn$
      begin
        -- One writer per slice at a time, slices locked in one order (no deadlock): a second
        -- statement rebuilding the same slice then reads the first one's committed records and
        -- replaces its rows, instead of rebuilding from an older view and colliding with them.
        perform pg_advisory_xact_lock(${SLICE_LOCK_CLASS}, h) from (
          select distinct hashtext(concat_ws(chr(1), client_id, bu, pf, region)) as h
          from unnest(client_ids, bus, pfs, regions) as s(client_id, bu, pf, region) order by h) l;
        execute $q$delete from demand_annotation_digest d using (${SLICE_ARRAYS}) s
          where (d.client_id, d.bu, d.pf, d.region) = (s.client_id, s.bu, s.pf, s.region)$q$
          using client_ids, bus, pfs, regions;
        execute $q$insert into demand_annotation_digest ${digestOf(SLICE_ARRAYS)}$q$
          using client_ids, bus, pfs, regions;
      end $fn$`,
    )
    .execute(db);

  await sql
    .raw(
      `create function annotation_digest_rebuild() returns void language plpgsql as $fn$
      begin
        delete from demand_annotation_digest;
        insert into demand_annotation_digest ${digestOf('select distinct client_id, bu, pf, region from products')};
      end $fn$`,
    )
    .execute(db);

  // Records: the slices of the records whose annotations a statement changed (a record that moved
  // to another week counts as changed). The annotated rows are few, so the comparison is cheap
  // even for a 5,000-record batch of overrides.
  const changedPids: Record<'INSERT' | 'UPDATE' | 'DELETE', string> = {
    INSERT: `select pid from (${annotated('new_rows')}) n`,
    UPDATE: `select pid from ((${annotated('old_rows')} except ${annotated('new_rows')})
      union all (${annotated('new_rows')} except ${annotated('old_rows')})) c`,
    DELETE: `select pid from (${annotated('old_rows')}) o`,
  };
  const refreshFor = (pids: string) => `
    select coalesce(array_agg(client_id), '{}'), coalesce(array_agg(bu), '{}'),
      coalesce(array_agg(pf), '{}'), coalesce(array_agg(region), '{}')
    from (select distinct p.client_id, p.bu, p.pf, p.region
      from products p where p.pid in (${pids})) s`;
  await sql
    .raw(
      `create function annotation_digest_on_records() returns trigger language plpgsql as $fn$
      declare
        client_ids text[]; bus text[]; pfs text[]; regions text[];
      begin
        if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
          return null;
        end if;
        if tg_op = 'INSERT' then
          execute $q$${refreshFor(changedPids.INSERT)}$q$ into client_ids, bus, pfs, regions;
        elsif tg_op = 'UPDATE' then
          execute $q$${refreshFor(changedPids.UPDATE)}$q$ into client_ids, bus, pfs, regions;
        else
          execute $q$${refreshFor(changedPids.DELETE)}$q$ into client_ids, bus, pfs, regions;
        end if;
        if cardinality(client_ids) > 0 then
          perform annotation_digest_refresh(client_ids, bus, pfs, regions);
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger annotation_digest_${event} after ${event} on demand_records
         referencing ${referencing} for each statement execute function annotation_digest_on_records()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function annotation_digest_on_truncate() returns trigger language plpgsql as $fn$
      begin truncate demand_annotation_digest; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger annotation_digest_truncate after truncate on demand_records
    for each statement execute function annotation_digest_on_truncate()`.execute(db);

  // Products: one that changes slice takes its records' annotations along; one that goes (its
  // records with it) leaves its old slice. Its old slice is rebuilt without it, its new one with it.
  await sql
    .raw(
      `create function annotation_digest_on_products() returns trigger language plpgsql as $fn$
      begin
        perform annotation_digest_refresh(array[old.client_id], array[old.bu], array[old.pf], array[old.region]);
        if tg_op = 'UPDATE' then
          perform annotation_digest_refresh(array[new.client_id], array[new.bu], array[new.pf], array[new.region]);
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql`create trigger annotation_digest_product_update after update of client_id, bu, pf, region
    on products for each row
    when ((old.client_id, old.bu, old.pf, old.region) is distinct from (new.client_id, new.bu, new.pf, new.region))
    execute function annotation_digest_on_products()`.execute(db);
  await sql`create trigger annotation_digest_product_delete after delete on products
    for each row execute function annotation_digest_on_products()`.execute(db);

  // Backfill: an existing database's annotations (the kept 20,000 × 156 bench schema, say).
  await sql`select annotation_digest_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists annotation_digest_product_delete on products`.execute(db);
  await sql`drop trigger if exists annotation_digest_product_update on products`.execute(db);
  for (const event of ['insert', 'update', 'delete', 'truncate']) {
    await sql.raw(`drop trigger if exists annotation_digest_${event} on demand_records`).execute(db);
  }
  await sql`drop function if exists annotation_digest_on_products()`.execute(db);
  await sql`drop function if exists annotation_digest_on_truncate()`.execute(db);
  await sql`drop function if exists annotation_digest_on_records()`.execute(db);
  await sql`drop function if exists annotation_digest_rebuild()`.execute(db);
  await sql`drop function if exists annotation_digest_refresh(text[], text[], text[], text[])`.execute(db);
  await sql`drop table if exists demand_annotation_digest`.execute(db);
}
