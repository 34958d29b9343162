import { sql, type Kysely } from 'kysely';

/**
 * The planner's grid:
 * - demand_record_locks: records a planner locked against aggregate edits (a spread leaves them).
 * - audit_log.cause: what made a change beyond its source, e.g. the aggregate edit a spread
 *   applied ("Product Family Ball Valves · 2026-Q1: SOP_Pln_Ovrd_Units = 1200") or the save an
 *   undo reverted.
 * - demand_record_last_override: who last overrode each record and when, kept apart from
 *   last_updated_by, which system rewrites (forecast runs) also set, so a run never hides a
 *   planner's work. A statement trigger on audit_log keeps it: every planner write is audited in
 *   the same transaction, whoever writes it (edit, batch, spread, undo, import), and forecast runs,
 *   publishes and deletes are not planner overrides.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table demand_record_locks (
    pid text not null,
    week_start date not null,
    locked_by text not null,
    locked_at timestamptz not null default now(),
    primary key (pid, week_start),
    foreign key (pid, week_start) references demand_records (pid, week_start) on delete cascade)`.execute(db);
  await sql`alter table audit_log add column cause text`.execute(db);
  await sql`create table demand_record_last_override (
    pid text not null,
    week_start date not null,
    overridden_by text not null,
    overridden_at timestamptz not null,
    source text not null,
    primary key (pid, week_start),
    foreign key (pid, week_start) references demand_records (pid, week_start) on delete cascade)`.execute(db);
  await sql`create function audit_log_last_override() returns trigger language plpgsql as $$
    begin
      insert into demand_record_last_override as o (pid, week_start, overridden_by, overridden_at, source)
      select distinct on (n.pid, n.week_start) n.pid, n.week_start, n.changed_by, n.changed_at, n.source
      from new_rows n
      where n.source <> all (array['forecast', 'publish', 'delete'])
        and exists (select 1 from demand_records r where r.pid = n.pid and r.week_start = n.week_start)
      order by n.pid, n.week_start, n.changed_at desc, n.id desc
      on conflict (pid, week_start) do update
        set overridden_by = excluded.overridden_by, overridden_at = excluded.overridden_at,
            source = excluded.source
        where o.overridden_at <= excluded.overridden_at;
      return null;
    end $$`.execute(db);
  await sql`create trigger audit_log_last_override after insert on audit_log
    referencing new table as new_rows for each statement execute function audit_log_last_override()`.execute(
    db,
  );
  // Existing history, once: the latest planner change of each record.
  await sql`insert into demand_record_last_override (pid, week_start, overridden_by, overridden_at, source)
    select distinct on (a.pid, a.week_start) a.pid, a.week_start, a.changed_by, a.changed_at, a.source
    from audit_log a join demand_records r on r.pid = a.pid and r.week_start = a.week_start
    where a.source <> all (array['forecast', 'publish', 'delete'])
    order by a.pid, a.week_start, a.changed_at desc, a.id desc`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger audit_log_last_override on audit_log`.execute(db);
  await sql`drop function audit_log_last_override()`.execute(db);
  await sql`drop table demand_record_last_override`.execute(db);
  await sql`alter table audit_log drop column cause`.execute(db);
  await sql`drop table demand_record_locks`.execute(db);
}
