import { periodRangeOf, type DrillDown, type RollupViewLevel } from '@ps/domain';
import { sql, type Kysely, type Transaction } from 'kysely';
import { selectWritableRecords, type WritableRecordRow } from '../../db/demand-record-row';
import type { Database } from '../../db/schema';
import { groupName, periodKey, productFilter, weekFilter, type GridFilters } from '../planning-grid';

type Db = Kysely<Database> | Transaction<Database>;

export type GroupCell = {
  viewLevel: RollupViewLevel;
  drillDown: DrillDown;
  group: string;
  periodKey: string;
  filters: GridFilters;
};

/**
 * The records under one aggregated cell (the same group and period rules the roll-up used), each
 * with its lock and what a write needs of it, in key order; locked FOR UPDATE when the spread will
 * write them.
 */
export async function findCellRecords(
  db: Db,
  cell: GroupCell,
  options: { forUpdate: boolean },
): Promise<Array<WritableRecordRow & { locked: boolean }>> {
  const range = weekRangeOf(cell);
  let query = selectWritableRecords(db)
    .leftJoin('demand_record_locks as l', (join) =>
      join.onRef('l.pid', '=', 'r.pid').onRef('l.week_start', '=', 'r.week_start'),
    )
    .select(sql<boolean>`l.pid is not null`.as('locked'))
    .where(sql<boolean>`${productFilter(cell.filters)}${weekFilter(cell.filters, 'r.week_start')}`)
    .where(sql<boolean>`${groupName(cell.viewLevel, 'p')} = ${cell.group}`)
    .where(sql<boolean>`${periodKey(cell.drillDown, sql`r.week_start`)} = ${cell.periodKey}`)
    .$if(range !== null, (q) =>
      q.where('r.week_start', '>=', range!.from).where('r.week_start', '<', range!.to),
    )
    .orderBy('r.pid')
    .orderBy('r.week_start');
  if (options.forUpdate) query = query.forUpdate('r');
  return query.execute();
}

/**
 * The weeks of the cell's period as a primary-key range, or null without a drill-down (or for a
 * key that names no period, which then matches nothing anyway). The period key alone is an
 * expression of each record's week: every week of every product of the group was read to keep
 * the cell's few (156 to find 13 for a quarter), which grew with the products of the group.
 */
function weekRangeOf(cell: GroupCell): { from: string; to: string } | null {
  if (cell.drillDown === 'none') return null;
  try {
    return periodRangeOf(cell.drillDown, cell.periodKey);
  } catch {
    return null;
  }
}

/** Locks or unlocks the given records among those of the caller's clients; answers how many it saw. */
export async function setLocks(
  trx: Transaction<Database>,
  keys: ReadonlyArray<{ pid: string; weekStart: string }>,
  change: { locked: boolean; by: string; clientIds: readonly string[] },
): Promise<number> {
  const pids = keys.map((k) => k.pid);
  const weeks = keys.map((k) => k.weekStart);
  const visible = sql`
    select r.pid, r.week_start
    from unnest(${pids}::text[], ${weeks}::date[]) as k(pid, week_start)
    join demand_records r on r.pid = k.pid and r.week_start = k.week_start
    join products p on p.pid = r.pid
    where p.client_id = any(${[...change.clientIds]}::text[])`;
  const { rows } = change.locked
    ? await sql<{ n: number }>`
        with v as (${visible}),
        ins as (
          insert into demand_record_locks (pid, week_start, locked_by)
          select pid, week_start, ${change.by} from v
          on conflict (pid, week_start) do nothing)
        select count(*)::int as n from v`.execute(trx)
    : await sql<{ n: number }>`
        with v as (${visible}),
        del as (
          delete from demand_record_locks l using v where l.pid = v.pid and l.week_start = v.week_start)
        select count(*)::int as n from v`.execute(trx);
  return rows[0]?.n ?? 0;
}

export type HistoryRow = {
  id: number;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string;
  changed_at: Date;
  source: string;
  cause: string | null;
  reason_code: string | null;
  comment: string | null;
};

/**
 * A record's audit trail, newest first, if the record belongs to one of the caller's clients. Each
 * change carries the reason code and comment saved with it: the values those fields held right
 * after the same save (same time and user), else the last ones set before it.
 */
export async function recordHistory(
  db: Db,
  key: { pid: string; weekStart: string },
  clientIds: readonly string[],
): Promise<HistoryRow[] | null> {
  const owner = await db
    .selectFrom('products')
    .select('client_id')
    .where('pid', '=', key.pid)
    .where('client_id', 'in', [...clientIds])
    .executeTakeFirst();
  if (!owner) return null;
  const { rows } = await sql<HistoryRow>`
    with a as (
      select * from audit_log where pid = ${key.pid} and week_start = ${key.weekStart}::date)
    select a.id::int as id, a.field, a.old_value, a.new_value, a.changed_by, a.changed_at, a.source, a.cause,
      (select x.new_value from a x where x.field = 'Reason_Code' and x.changed_at <= a.changed_at
        order by x.changed_at desc, x.id desc limit 1) as reason_code,
      (select x.new_value from a x where x.field = 'Comments' and x.changed_at <= a.changed_at
        order by x.changed_at desc, x.id desc limit 1) as comment
    from a
    order by a.changed_at desc, a.id desc
    limit 500`.execute(db);
  return rows;
}

/** Sources a planner's save writes; an undo reverts the latest of them. */
const SAVE_SOURCES = ['edit', 'batch', 'spread'];

/**
 * The audit rows of the caller's last save (one transaction's rows share their time), unless an
 * undo of theirs came after it: undo reverts the last save once, it is not a history walk.
 */
export async function lastSaveAudit(
  db: Db,
  user: string,
  clientIds: readonly string[],
): Promise<
  Array<{
    pid: string;
    week_start: string;
    field: string;
    old_value: string | null;
    new_value: string | null;
    changed_at: Date;
  }>
> {
  const { rows } = await sql<{
    pid: string;
    week_start: string;
    field: string;
    old_value: string | null;
    new_value: string | null;
    changed_at: Date;
  }>`
    with last as (
      select max(changed_at) as at from audit_log
      where changed_by = ${user} and source = any(${SAVE_SOURCES}::text[]) and client_id = any(${[...clientIds]}::text[])),
    undone as (
      select max(changed_at) as at from audit_log
      where changed_by = ${user} and source = 'undo' and client_id = any(${[...clientIds]}::text[]))
    select a.pid, to_char(a.week_start, 'YYYY-MM-DD') as week_start, a.field, a.old_value, a.new_value, a.changed_at
    from audit_log a, last
    where a.changed_at = last.at and a.changed_by = ${user} and a.source = any(${SAVE_SOURCES}::text[])
      and a.client_id = any(${[...clientIds]}::text[])
      and (select at from undone) is distinct from greatest((select at from undone), last.at)
    order by a.id`.execute(db);
  return rows;
}
