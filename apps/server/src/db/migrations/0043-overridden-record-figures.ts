import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** A record with any override set (a row of demand_records or of a transition table). */
const OVERRIDDEN = `(rev_pln_ovrd_percent is not null or rev_pln_ovrd_units is not null
  or sop_pln_ovrd_percent is not null or sop_pln_ovrd_units is not null)`;

/** The keys of the overridden rows of `rows`. */
const keysOf = (rows: string) => `select pid, week_start from ${rows} where ${OVERRIDDEN}`;

/** rebuild_demand_overridden_records as this migration defines it: the keys alone. */
const REBUILD_KEYS = `create or replace function rebuild_demand_overridden_records() returns void language plpgsql as $fn$
      begin
        delete from demand_overridden_records;
        insert into demand_overridden_records (pid, week_start) ${keysOf('demand_records')};
      end $fn$`;

/** demand_overridden_records_on_records as this migration defines it: the keys alone. */
const KEEP_KEYS = `create or replace function demand_overridden_records_on_records() returns trigger language plpgsql as $fn$
      begin
        -- EXECUTE plans each statement for the rows this call has (migration 0005: a static
        -- statement keeps the plan of its first call on the connection, whatever came after).
        if tg_op = 'INSERT' then
          execute $q$insert into demand_overridden_records (pid, week_start) ${keysOf('new_rows')}
            on conflict do nothing$q$;
        elsif tg_op = 'DELETE' then
          execute $q$delete from demand_overridden_records d using (${keysOf('old_rows')}) o
            where d.pid = o.pid and d.week_start = o.week_start$q$;
        elsif coalesce(current_setting('planning.skip_rollup', true), '') <> 'on' then
          execute $q$delete from demand_overridden_records d
            using (${keysOf('old_rows')} except ${keysOf('new_rows')}) o
            where d.pid = o.pid and d.week_start = o.week_start$q$;
          execute $q$insert into demand_overridden_records (pid, week_start)
            ${keysOf('new_rows')} except ${keysOf('old_rows')}
            on conflict do nothing$q$;
        end if;
        return null;
      end $fn$`;

/**
 * The overridden records (migration 0039) carry the four figures the summary reads of them.
 *
 * The summary block looked each overridden record up in demand_records by its key (936 lookups on
 * the default data set, about half of its 13 ms of PostgreSQL CPU a call, one call in ten of the
 * planners' mix). demand_overridden_records now holds each one's final plan revenue, statistical
 * forecast units, reason code and last update, kept by the same statement triggers: an update
 * writes the overridden rows whose figures moved (a few per cent of a statement's rows, written in
 * place: only the key is indexed). The baseline revenue stays a product of the forecast and the
 * product's current unit price, read at query time, so a price change needs no rewrite here.
 */

const FIGURES = ['final_pln_rev_dlrs', 'ensemble_fcst_units', 'reason_code', 'last_updated_at'];
const COLUMNS = ['pid', 'week_start', ...FIGURES].join(', ');

const rowsOf = (rows: string) => `select ${COLUMNS} from ${rows} where ${OVERRIDDEN}`;

/** Writes the overridden rows of `rows` whose figures are new or moved. */
const upsert = (rows: string) => `insert into demand_overridden_records as d (${COLUMNS})
  ${rowsOf(rows)}
  on conflict (pid, week_start) do update set ${FIGURES.map((c) => `${c} = excluded.${c}`).join(', ')}
  where (${FIGURES.map((c) => `d.${c}`).join(', ')}) is distinct from (${FIGURES.map((c) => `excluded.${c}`).join(', ')})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table demand_overridden_records
    add column final_pln_rev_dlrs numeric(16, 2),
    add column ensemble_fcst_units double precision,
    add column reason_code text,
    add column last_updated_at timestamptz`.execute(db);
  await sql
    .raw(
      `create or replace function rebuild_demand_overridden_records() returns void language plpgsql as $fn$
      begin
        delete from demand_overridden_records;
        insert into demand_overridden_records (${COLUMNS}) ${rowsOf('demand_records')};
      end $fn$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function demand_overridden_records_on_records() returns trigger language plpgsql as $fn$
      begin
        -- EXECUTE plans each statement for the rows this call has (migration 0005).
        if tg_op = 'INSERT' then
          execute $q$${upsert('new_rows')}$q$;
        elsif tg_op = 'DELETE' then
          execute $q$delete from demand_overridden_records d using (${keysOf('old_rows')}) o
            where d.pid = o.pid and d.week_start = o.week_start$q$;
        elsif coalesce(current_setting('planning.skip_rollup', true), '') <> 'on' then
          -- A publish (the only update with the switch on) moves no figure kept here.
          execute $q$delete from demand_overridden_records d
            using (${keysOf('old_rows')} except ${keysOf('new_rows')}) o
            where d.pid = o.pid and d.week_start = o.week_start$q$;
          execute $q$${upsert('new_rows')}$q$;
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql`select rebuild_demand_overridden_records()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(KEEP_KEYS).execute(db);
  await sql.raw(REBUILD_KEYS).execute(db);
  await sql`alter table demand_overridden_records
    drop column final_pln_rev_dlrs, drop column ensemble_fcst_units,
    drop column reason_code, drop column last_updated_at`.execute(db);
}
