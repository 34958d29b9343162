import { sql, type Kysely } from 'kysely';

/**
 * Live updates of the planner's grid: every statement that inserts, updates or
 * deletes demand records sends one NOTIFY per client on the channel `planning_record_changes`.
 * A trigger rather than a call in each service, so every writer is covered the same way (batch
 * save, spread, undo, import, forecast run, publish), and NOTIFY is delivered only when the
 * transaction commits (a rolled-back save tells nobody). Each server process LISTENs on one
 * connection and forwards the events to its open grids.
 *
 * Payload (JSON, under PostgreSQL's 8,000-byte limit): the schema (test schemas share a database),
 * the client, how many records and products changed, and the products, families and business units
 * touched. Product lists longer than 100 and family lists longer than 60 are sent as null
 * ("many"): a grid then refetches whatever it shows.
 */
const FUNCTION = `create function demand_records_notify_change() returns trigger language plpgsql as $fn$
  declare
    change record;
    payload text;
  begin
    -- Transition tables are named per event; EXECUTE lets one function read either.
    for change in execute format($q$
      select p.client_id, sum(c.records) as records, count(*) as products,
        case when count(*) <= 100 then array_agg(c.pid order by c.pid) end as pids,
        case when count(distinct p.pf) <= 60 then array_agg(distinct p.pf) end as families,
        array_agg(distinct p.bu) as units
      from (select pid, count(*) as records from %I group by pid) c
      join products p on p.pid = c.pid
      group by p.client_id$q$, case when tg_op = 'DELETE' then 'old_rows' else 'new_rows' end)
    loop
      payload := json_build_object('s', current_schema(), 'c', change.client_id, 'n', change.records,
        'np', change.products, 'p', change.pids, 'f', change.families, 'b', change.units)::text;
      -- A payload over 8,000 bytes would fail the writer's transaction: long names go as "many".
      if octet_length(payload) > 7900 then
        payload := json_build_object('s', current_schema(), 'c', change.client_id, 'n', change.records,
          'np', change.products, 'p', null, 'f', null, 'b', null)::text;
      end if;
      perform pg_notify('planning_record_changes', payload);
    end loop;
    return null;
  end $fn$`;

const TRIGGERS = [
  ['insert', 'new table as new_rows'],
  ['update', 'new table as new_rows'],
  ['delete', 'old table as old_rows'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(FUNCTION).execute(db);
  for (const [event, referencing] of TRIGGERS) {
    await sql
      .raw(
        `create trigger demand_records_notify_${event} after ${event} on demand_records
         referencing ${referencing} for each statement execute function demand_records_notify_change()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [event] of TRIGGERS) {
    await sql.raw(`drop trigger demand_records_notify_${event} on demand_records`).execute(db);
  }
  await sql`drop function demand_records_notify_change()`.execute(db);
}
