import type { DataLoadCounts, DataLoadEntity, DataLoadRefusal } from '@ps/domain';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { arrayLiteral, copyText } from '../../db/bulk';
import { JOB_LOCK_CLASS, jobLockFree, lockJob, ORPHAN_GRACE } from '../../db/job-locks';
import type { Database, DataLoadsTable } from '../../db/schema';
import { EXTREMES_REFRESHED_AT_ONCE, bulkWrite, type BulkKeys } from '../../read-model';
import { STAGE_COLUMNS } from './stage-columns';

type Db = Kysely<Database> | Transaction<Database>;
export type DataLoadRow = Selectable<DataLoadsTable>;

export const SOURCE = 'data-load';
/** A blank effective date: the price holds since always. */
export const SINCE_ALWAYS = '1900-01-01';
export const STAGE = 'data_load_stage';

export async function insertRunningLoad(
  db: Db,
  load: {
    entity: DataLoadEntity;
    fileName: string;
    dryRun: boolean;
    by: string;
    byId: string;
    bytes: number;
  },
): Promise<DataLoadRow> {
  return (await db
    .insertInto('data_loads')
    .values({
      entity: load.entity,
      file_name: load.fileName,
      dry_run: load.dryRun,
      status: 'running',
      loaded_by: load.by,
      loaded_by_id: load.byId,
      finished_at: null,
      duration_ms: null,
      total_bytes: load.bytes,
      error: null,
      refusals: '[]',
      steps: '{}',
    })
    .returningAll()
    .executeTakeFirstOrThrow()) satisfies DataLoadRow;
}

export async function finishLoad(
  db: Db,
  id: number,
  end: {
    status: 'succeeded' | 'refused' | 'failed';
    processedRows: number;
    counts: DataLoadCounts | null;
    refusals: DataLoadRefusal[];
    error: string | null;
    steps: Record<string, number>;
    durationMs: number;
  },
): Promise<DataLoadRow> {
  return (await db
    .updateTable('data_loads')
    .set({
      status: end.status,
      processed_rows: end.processedRows,
      counts: end.counts ? JSON.stringify(end.counts) : null,
      refusals: JSON.stringify(end.refusals),
      error: end.error,
      steps: JSON.stringify(end.steps),
      duration_ms: end.durationMs,
      finished_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()) satisfies DataLoadRow;
}

export async function findLoad(db: Db, id: number): Promise<DataLoadRow | undefined> {
  return (await db.selectFrom('data_loads').selectAll().where('id', '=', id).executeTakeFirst()) satisfies
    DataLoadRow | undefined;
}

export async function latestLoads(db: Db, limit: number): Promise<DataLoadRow[]> {
  return (await db
    .selectFrom('data_loads')
    .selectAll()
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()) satisfies DataLoadRow[];
}

export const INTERRUPTED_LOAD = 'The server stopped during the load: nothing was written';

/**
 * Marks failed the loads left 'running' by a stopped server, but `own` (this process's): on the
 * embedded database, which only this process opens, every other one; on a shared PostgreSQL only
 * those whose transaction's lock nobody holds (`lockedOnly`). Their transaction ended with the
 * server, so nothing of them was written.
 */
export async function failInterruptedLoads(
  db: Kysely<Database>,
  options: { own: readonly number[]; lockedOnly: boolean },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('data_loads')
      .set({ status: 'failed', error: INTERRUPTED_LOAD, finished_at: new Date() })
      .where('status', '=', 'running')
      .$if(options.own.length > 0, (q) => q.where('id', 'not in', [...options.own]))
      .$if(options.lockedOnly, (q) =>
        q.where('started_at', '<', ORPHAN_GRACE).where(jobLockFree(JOB_LOCK_CLASS.dataLoad)),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/** Marks the load as its transaction's: see lockJob. */
export async function lockLoad(trx: Transaction<Database>, id: number): Promise<void> {
  await lockJob(trx, JOB_LOCK_CLASS.dataLoad, id);
}

/**
 * A load's transaction may run for minutes: its set-based writes over millions of rows outlast the
 * pool's statement limit, and it waits between COPY batches while the worker reads the next.
 */
export async function allowLongLoad(trx: Transaction<Database>): Promise<void> {
  await sql`set local statement_timeout = '1800s'`.execute(trx);
  await sql`set local idle_in_transaction_session_timeout = '600s'`.execute(trx);
  // Grouping, sorting and indexing millions of staged rows in memory rather than in temporary files.
  await sql`set local work_mem = '128MB'`.execute(trx);
  await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
}

/** The stage table of one load, dropped with its transaction. */
export async function createStage(trx: Transaction<Database>, entity: DataLoadEntity): Promise<void> {
  const types: Record<string, string> = {
    unit_cost: 'numeric(14,4)',
    unit_price: 'numeric(14,4)',
    revenue: 'numeric(16,2)',
    cost: 'numeric(16,2)',
  };
  const columns = STAGE_COLUMNS[entity].map((c) => sql.raw(`${c.name} ${types[c.name] ?? c.type}`));
  await sql`create temp table ${sql.raw(STAGE)} (${sql.join(columns)}) on commit drop`.execute(trx);
}

/** Unescapes one COPY text value (see file-rows.ts). */
const fromCopy = (value: string): string | null =>
  value === '\\N'
    ? null
    : value.replace(/\\([\\tnr])/g, (_, c: string) => ({ '\\': '\\', t: '\t', n: '\n', r: '\r' })[c]!);

/**
 * Writes a batch of stage rows: COPY on PostgreSQL; on PGlite, which has no COPY protocol here,
 * the lines become one array per column and one unnest insert.
 */
export async function stageBatch(
  trx: Transaction<Database>,
  entity: DataLoadEntity,
  copy: string,
  usesCopy: boolean,
): Promise<void> {
  if (copy === '') return;
  const columns = STAGE_COLUMNS[entity];
  if (usesCopy) {
    await copyText(
      trx,
      STAGE,
      columns.map((c) => c.name),
      copy,
    );
    return;
  }
  const lines = copy.slice(0, -1).split('\n');
  const values = columns.map(() => [] as Array<string | null>);
  for (const line of lines) line.split('\t').forEach((value, i) => values[i]!.push(fromCopy(value)));
  const arrays = columns.map((c, i) => sql`${arrayLiteral(values[i]!)}::${sql.raw(c.type)}[]`);
  await sql`insert into ${sql.raw(STAGE)} select * from unnest(${sql.join(arrays)})`.execute(trx);
}

export type Checked = { counts: DataLoadCounts; refusals: DataLoadRefusal[] };

/** The refusals the rows get once they are all staged, kept for the counts and writes that follow. */
export async function collectRefusals(
  trx: Transaction<Database>,
  query: ReturnType<typeof sql>,
): Promise<{ refused: number; refusals: DataLoadRefusal[] }> {
  await sql`create temp table data_load_refused on commit drop as ${query}`.execute(trx);
  await sql`create index on data_load_refused (row_no)`.execute(trx);
  const { rows } = await sql<{ refused: number; refusals: DataLoadRefusal[] | null }>`
    select (select count(distinct row_no)::int from data_load_refused) as refused,
      (select json_agg(json_build_object('row', row_no, 'field', field, 'reason', reason) order by row_no)
        from (select * from data_load_refused order by row_no limit 500) f) as refusals`.execute(trx);
  return { refused: rows[0]!.refused, refusals: rows[0]!.refusals ?? [] };
}

const ATTRIBUTES = ['client_id', 'bu', 'pf', 'class', 'region', 'site', 'entity_type', 'planner'];

/**
 * Products: refuses a PID another client owns (an admin may be told which), a PID and price date
 * twice, and rows of one PID whose attributes differ; counts each remaining row against the
 * product and its price of that date.
 */
export async function checkProducts(trx: Transaction<Database>): Promise<Checked> {
  await sql`create temp table data_load_products on commit drop as
    select *, coalesce(effective_from, ${SINCE_ALWAYS}::date) as eff,
      first_value(row_no) over (partition by pid order by row_no) as pid_row,
      first_value(row_no) over (partition by pid, coalesce(effective_from, ${SINCE_ALWAYS}::date) order by row_no) as key_row
    from ${sql.raw(STAGE)}`.execute(trx);
  const attributes = (alias: string) => sql.raw(ATTRIBUTES.map((a) => `${alias}.${a}`).join(', '));
  const { refused, refusals } = await collectRefusals(
    trx,
    sql`
      select s.row_no, 'PID'::text as field,
        'PID ' || s.pid || ' belongs to client ' || p.client_id || '; a product id is unique across clients: give this client''s product a prefixed PID (e.g. ' || s.client_id || '-' || s.pid || ')' as reason
      from data_load_products s join products p on p.pid = s.pid
      where p.client_id <> s.client_id
      union all
      select s.row_no, 'Effective Date', 'PID ' || s.pid || ' with this effective date is also in row ' || s.key_row
      from data_load_products s where s.row_no <> s.key_row
      union all
      select s.row_no, 'PID', 'PID ' || s.pid || ': client, business unit, family, class, region, site, entity type and planner must be the same on every row of a product (they differ from row ' || s.pid_row || ')'
      from data_load_products s join data_load_products f on f.row_no = s.pid_row
      where s.row_no <> s.pid_row and (${attributes('s')}) is distinct from (${attributes('f')})`,
  );
  const { rows } = await sql<DataLoadCounts>`
    select count(*) filter (where p.pid is null)::int as inserted,
      count(*) filter (where p.pid is not null and c.changed)::int as updated,
      count(*) filter (where p.pid is not null and not c.changed)::int as unchanged,
      0 as refused
    from data_load_products s
      left join products p on p.pid = s.pid
      left join product_details d on d.pid = s.pid
      left join product_prices pp on pp.pid = s.pid and pp.effective_from = s.eff
      cross join lateral (select
        (s.bu, s.pf) is distinct from (p.bu, p.pf)
        or (s.class is not null and s.class is distinct from p.class)
        or (s.region is not null and s.region is distinct from p.region)
        or (s.site is not null and s.site is distinct from p.site)
        or (s.entity_type is not null and s.entity_type is distinct from p.entity_type)
        or (s.planner is not null and s.planner is distinct from d.planner_name)
        or pp.pid is null
        or (pp.unit_cost, pp.unit_price) is distinct from (s.unit_cost, s.unit_price) as changed) c
    where not exists (select 1 from data_load_refused r where r.row_no = s.row_no)`.execute(trx);
  return { counts: { ...rows[0]!, refused }, refusals };
}

/**
 * Writes checked products: each changed attribute and price audited, then the products (new ones
 * get 'Unassigned' where the file is blank), planners, dated prices, and each product's cost and
 * price in effect this week (`currentWeek`), which plan money is computed with.
 */
export async function applyProducts(
  trx: Transaction<Database>,
  change: { by: string; loadId: number; currentWeek: string },
): Promise<void> {
  await sql`create temp table data_load_firsts on commit drop as
    select * from data_load_products where row_no = pid_row`.execute(trx);
  const kept = (column: string, alias = 'p') => sql.raw(`coalesce(f.${column}, ${alias}.${column})`);
  await sql`
    insert into product_audit_log (client_id, pid, field, old_value, new_value, changed_by, source, import_id)
    select p.client_id, p.pid, c.field, c.old_value, c.new_value, ${change.by}, ${SOURCE}, null::bigint
    from data_load_firsts f join products p on p.pid = f.pid
      left join product_details d on d.pid = f.pid
      cross join lateral (values
        ('businessUnit', p.bu, f.bu), ('family', p.pf, f.pf), ('class', p.class, ${kept('class')}),
        ('region', p.region, ${kept('region')}), ('site', p.site, ${kept('site')}),
        ('entityType', p.entity_type, ${kept('entity_type')}),
        ('plannerName', d.planner_name, coalesce(f.planner, d.planner_name))) c(field, old_value, new_value)
    where c.old_value is distinct from c.new_value
    union all
    select p.client_id, p.pid, c.field || ' from ' || s.eff, c.old_value, c.new_value, ${change.by}, ${SOURCE}, null::bigint
    from data_load_products s join products p on p.pid = s.pid
      join product_prices pp on pp.pid = s.pid and pp.effective_from = s.eff
      cross join lateral (values ('unitCost', pp.unit_cost::text, s.unit_cost::text),
        ('unitPrice', pp.unit_price::text, s.unit_price::text)) c(field, old_value, new_value)
    where c.old_value::numeric <> c.new_value::numeric`.execute(trx);
  await sql`
    update products p set bu = f.bu, pf = f.pf, class = ${kept('class')}, region = ${kept('region')},
      site = ${kept('site')}, entity_type = ${kept('entity_type')}
    from data_load_firsts f
    where p.pid = f.pid and (p.bu, p.pf, p.class, p.region, p.site, p.entity_type)
      is distinct from (f.bu, f.pf, ${kept('class')}, ${kept('region')}, ${kept('site')}, ${kept('entity_type')})`.execute(
    trx,
  );
  await sql`
    insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
    select f.pid, f.client_id, f.bu, f.pf, coalesce(f.class, 'Unassigned'), coalesce(f.region, 'Unassigned'),
      coalesce(f.site, 'Unassigned'), coalesce(f.entity_type, 'Unassigned'), f.unit_cost, f.unit_price
    from data_load_firsts f
    on conflict (pid) do nothing`.execute(trx);
  await sql`
    insert into product_details as d (pid, planner_name, notes)
    select f.pid, f.planner, null from data_load_firsts f where f.planner is not null
    on conflict (pid) do update set planner_name = excluded.planner_name
      where d.planner_name is distinct from excluded.planner_name`.execute(trx);
  await sql`
    insert into product_prices as pp (pid, effective_from, unit_cost, unit_price)
    select s.pid, s.eff, s.unit_cost, s.unit_price from data_load_products s
    on conflict (pid, effective_from) do update set unit_cost = excluded.unit_cost, unit_price = excluded.unit_price
      where (pp.unit_cost, pp.unit_price) is distinct from (excluded.unit_cost, excluded.unit_price)`.execute(
    trx,
  );
  await sql`
    update products p set unit_cost = x.unit_cost, unit_price = x.unit_price
    from (
      select distinct on (pp.pid) pp.pid, pp.unit_cost, pp.unit_price
      from product_prices pp
      where pp.pid in (select pid from data_load_firsts)
      order by pp.pid, (pp.effective_from <= ${change.currentWeek}::date) desc,
        case when pp.effective_from <= ${change.currentWeek}::date then pp.effective_from end desc nulls last,
        pp.effective_from) x
    where p.pid = x.pid and (p.unit_cost, p.unit_price) is distinct from (x.unit_cost, x.unit_price)`.execute(
    trx,
  );
  // The statistics of products as loaded, not as before: a first load multiplies the table, and
  // the plans each connection keeps for looking a product up by key (the foreign keys of the
  // records written next) are made again from them, not kept as scans of a table of a few rows.
  await sql`analyze products`.execute(trx);
}

/**
 * Sales history: refuses unknown PIDs, a week given twice, and a week given both as a week and as
 * days; sums each product's week (days into their Sunday) with its money (sent, else units × the
 * price in effect that week), and counts each week against the history and the demand record.
 */
export async function checkSalesHistory(
  trx: Transaction<Database>,
  file: { keysDistinct?: boolean } = {},
): Promise<Checked> {
  const { refused, refusals } = (await sumCleanWeeks(trx, file.keysDistinct === true))
    ? { refused: 0, refusals: [] }
    : await sumCheckedWeeks(trx);
  await sql`create unique index on data_load_weeks (pid, week_start)`.execute(trx);
  // Temporary tables get no statistics of their own: without them the joins below are planned
  // for a few rows, whatever the file holds.
  await sql`analyze data_load_weeks`.execute(trx);
  const weeks = await checkedWeeks(trx);
  const { rows } = await sql<DataLoadCounts>`
    select count(*) filter (where s.pid is null)::int as inserted,
      count(*) filter (where s.pid is not null and c.changed)::int as updated,
      count(*) filter (where s.pid is not null and not c.changed)::int as unchanged,
      0 as refused
    from data_load_weeks w
      left join sales_history s on s.pid = w.pid and s.week_start = w.week_start and ${inWeeks('s', weeks)}
      left join demand_records r on r.pid = w.pid and r.week_start = w.week_start and ${inWeeks('r', weeks)}
      cross join lateral (select
        (s.units, s.revenue, s.cost) is distinct from (w.units, w.revenue, w.cost)
        or (r.pid is not null
          and (r.act_bkg_units, r.act_rev_dlrs, r.act_bkg_cost) is distinct from (w.units, w.revenue, w.cost)) as changed) c`.execute(
    trx,
  );
  return { counts: { ...rows[0]!, refused }, refusals };
}

/** Each staged row's week summed with its money: the products' prices in effect that week. */
const PRICED_WEEKS = sql`
  coalesce(w.given_revenue, 0) + coalesce(round(w.units_priced_revenue::numeric * coalesce(pp.unit_price, p.unit_price), 2), 0) as revenue,
  coalesce(w.given_cost, 0) + coalesce(round(w.units_priced_cost::numeric * coalesce(pp.unit_cost, p.unit_cost), 2), 0) as cost`;

/**
 * Every price with the date the next one takes effect (the products' few prices each, read whole:
 * one hash join, not a lookup per product and week), and the join of a week with its price.
 */
const PRICES_UNTIL_NEXT = sql`(
  select pp.pid, pp.effective_from, pp.unit_cost, pp.unit_price,
    lead(pp.effective_from) over (partition by pp.pid order by pp.effective_from) as until
  from product_prices pp) pp`;
const PRICE_OF_WEEK = sql`pp.pid = w.pid and w.week_start >= pp.effective_from
  and (pp.until is null or w.week_start < pp.until)`;

/** The sums of a product's week (and whether any row of it was sent without money). */
const WEEK_SUMS = sql`min(s.row_no) as row_no, sum(s.units) as units,
  sum(s.revenue) as given_revenue, sum(s.units) filter (where s.revenue is null) as units_priced_revenue,
  sum(s.cost) as given_cost, sum(s.units) filter (where s.cost is null) as units_priced_cost`;

/**
 * The common case in one pass over the stage: every product known, no week given twice nor both
 * as a week and as days. Then nothing is refused and the sums are data_load_weeks as
 * sumCheckedWeeks would write them; otherwise (false) that table is dropped for the full check.
 * Each refusal rule needs the rows in another order (a sort of every staged row each), and a file
 * that passes them all is the one loaded: its check is the one grouping it needs anyway. When the
 * reader saw every row's key differ from the others' (`keysDistinct`: weeks only, in key order),
 * each row is its own week and not even that grouping is needed.
 */
async function sumCleanWeeks(trx: Transaction<Database>, keysDistinct: boolean): Promise<boolean> {
  if (keysDistinct) {
    // The sums of one row each, as WEEK_SUMS gives them; the stage is in the file's (key) order.
    await sql`create temp table data_load_weeks on commit drop as
      select w.pid, w.week_start, w.row_no, w.units, ${PRICED_WEEKS}, p.pid is not null as is_product
      from (
        select s.pid, s.week_start, s.row_no, s.units, s.revenue as given_revenue,
          case when s.revenue is null then s.units end as units_priced_revenue, s.cost as given_cost,
          case when s.cost is null then s.units end as units_priced_cost
        from ${sql.raw(STAGE)} s) w
      left join products p on p.pid = w.pid
      left join ${PRICES_UNTIL_NEXT} on ${PRICE_OF_WEEK}`.execute(trx);
    const { rows } = await sql<{ clean: boolean }>`
      select not exists (select 1 from data_load_weeks where not is_product) as clean`.execute(trx);
    if (rows[0]!.clean) return true;
    await sql`drop table data_load_weeks`.execute(trx);
    return false;
  }
  await sql`create temp table data_load_weeks on commit drop as
    select w.pid, w.week_start, w.row_no, w.units, ${PRICED_WEEKS}, w.week_rows, w.day_rows,
      p.pid is not null as is_product
    from (
      select s.pid, s.week_start, ${WEEK_SUMS},
        count(*) filter (where not s.is_day) as week_rows, count(*) filter (where s.is_day) as day_rows
      from ${sql.raw(STAGE)} s
      group by s.pid, s.week_start) w
    left join products p on p.pid = w.pid
    left join ${PRICES_UNTIL_NEXT} on ${PRICE_OF_WEEK}
    -- In key order: the key's index is then built from sorted rows, and the writes read it in order.
    order by w.pid, w.week_start`.execute(trx);
  const { rows } = await sql<{ clean: boolean }>`
    select not exists (select 1 from data_load_weeks
      where not is_product or week_rows > 1 or (week_rows > 0 and day_rows > 0)) as clean`.execute(trx);
  if (rows[0]!.clean) return true;
  await sql`drop table data_load_weeks`.execute(trx);
  return false;
}

/**
 * The full check, for a file with a row to refuse: every refusal with its row and reason
 * (data_load_refused), and the sums of the rows left (data_load_weeks).
 */
async function sumCheckedWeeks(
  trx: Transaction<Database>,
): Promise<{ refused: number; refusals: DataLoadRefusal[] }> {
  await sql`create index on ${sql.raw(STAGE)} (pid, week_start)`.execute(trx);
  await sql`analyze ${sql.raw(STAGE)}`.execute(trx);
  const { refused, refusals } = await collectRefusals(
    trx,
    sql`
      select s.row_no, 'PID'::text as field,
        'PID ' || s.pid || ' is not a product: load it with the products first' as reason
      from ${sql.raw(STAGE)} s where not exists (select 1 from products p where p.pid = s.pid)
      union all
      select x.row_no, 'Week', 'PID ' || x.pid || ' week ' || x.week_start || ' is also in row ' || x.first_row
      from (select s.*, first_value(s.row_no) over (partition by s.pid, s.week_start order by s.row_no) as first_row
        from ${sql.raw(STAGE)} s where not s.is_day) x
      where x.row_no <> x.first_row
      union all
      select x.row_no, 'Date', 'PID ' || x.pid || ' week ' || x.week_start || ' is given as a week in row ' || x.week_row || ' and as days'
      from (select s.*, min(s.row_no) filter (where not s.is_day) over (partition by s.pid, s.week_start) as week_row
        from ${sql.raw(STAGE)} s) x
      where x.is_day and x.week_row is not null`,
  );
  await sql`create temp table data_load_weeks on commit drop as
    select w.pid, w.week_start, w.row_no, w.units, ${PRICED_WEEKS}
    from (
      select s.pid, s.week_start, ${WEEK_SUMS}
      from ${sql.raw(STAGE)} s
      where not exists (select 1 from data_load_refused r where r.row_no = s.row_no)
      group by s.pid, s.week_start) w
    join products p on p.pid = w.pid
    left join (
      select pp.pid, pp.effective_from, pp.unit_cost, pp.unit_price,
        lead(pp.effective_from) over (partition by pp.pid order by pp.effective_from) as until
      from product_prices pp
      where pp.pid in (select distinct s.pid from ${sql.raw(STAGE)} s)) pp
      -- Each price over the weeks until the next: one hash join, not a lookup per product and week.
      on pp.pid = w.pid and w.week_start >= pp.effective_from and (pp.until is null or w.week_start < pp.until)`.execute(
    trx,
  );
  return { refused, refusals };
}

/** The first and last of the checked weeks, and how many there are. */
type CheckedWeeks = { first: string | null; last: string | null; weeks: number };

async function checkedWeeks(trx: Transaction<Database>): Promise<CheckedWeeks> {
  const { rows } = await sql<CheckedWeeks>`
    select min(week_start)::text as first, max(week_start)::text as last, count(*)::int as weeks
    -- The weeks grouped (hashed), not counted distinct (a sort of every checked row).
    from (select week_start from data_load_weeks group by week_start) w`.execute(trx);
  return rows[0]!;
}

/**
 * `alias.week_start` within the checked weeks: added to a join on the key it changes no result,
 * but it tells the planner which weeks are read. A week's actuals (20,000 keys) were otherwise
 * joined by a pass over every week of the history and of the records; with the range they are read
 * through the week indexes (sales_history_week, demand_records_week).
 */
const inWeeks = (alias: string, weeks: CheckedWeeks) =>
  sql`${sql.ref(`${alias}.week_start`)} between ${weeks.first}::date and ${weeks.last}::date`;

/** The record columns a history load sets on the records it updates. */
const UPDATED_RECORD_COLUMNS = [
  'act_bkg_units',
  'act_rev_dlrs',
  'act_bkg_cost',
  'last_updated_at',
  'last_updated_by',
  'version',
];

/**
 * Writes checked weeks: a week whose earlier actual changes is audited as a correction, the
 * history is upserted, the demand records of those weeks take the actuals, and the weeks since
 * `recordsFrom` before `currentWeek` that have no record get one holding the actuals, so the grid,
 * roll-ups, dashboard, accuracy by lag and inventory statistics see them (through the records'
 * own triggers).
 */
export async function applySalesHistory(
  trx: Transaction<Database>,
  change: { by: string; loadId: number; currentWeek: string; recordsFrom: string },
): Promise<void> {
  const weeks = await checkedWeeks(trx);
  const isFewWeeks = weeks.weeks <= WEEKS_BY_DIFFERENCES;
  // A few weeks' statements probe keys: their cost estimates grow with the products and cross the
  // JIT thresholds, and compiling costs more than running.
  if (isFewWeeks) await sql`set local jit = off`.execute(trx);
  await sql`
    insert into audit_log (client_id, pid, week_start, field, old_value, new_value, changed_by, source, cause)
    select p.client_id, w.pid, w.week_start, c.field, c.old_value::text, c.new_value::text, ${change.by}, ${SOURCE},
      ${`correction by data load ${change.loadId}`}
    from data_load_weeks w join products p on p.pid = w.pid
      left join sales_history s on s.pid = w.pid and s.week_start = w.week_start and ${inWeeks('s', weeks)}
      left join demand_records r on r.pid = w.pid and r.week_start = w.week_start and ${inWeeks('r', weeks)}
      cross join lateral (values
        ('Act_Bkg_Units', coalesce(r.act_bkg_units, s.units)::numeric, w.units::numeric),
        ('Act_Rev_Dlrs', coalesce(r.act_rev_dlrs, s.revenue), w.revenue),
        ('Act_Bkg_Cost', coalesce(r.act_bkg_cost, s.cost), w.cost)) c(field, old_value, new_value)
    -- Only weeks that had history or a record can hold an earlier value: a first load's millions
    -- of new weeks are passed over before their three values are made.
    where (s.pid is not null or r.pid is not null)
      and c.old_value is not null and c.old_value <> c.new_value`.execute(trx);
  // Only what changed is written: the changed weeks updated, the new ones inserted in key order
  // (a plain insert, cheaper than an upsert's speculative one). Loads of history take turns, so
  // no other load inserts the same weeks in between.
  await sql`select pg_advisory_xact_lock(hashtext('data-load sales_history'))`.execute(trx);
  await sql`
    update sales_history s set units = w.units, revenue = w.revenue, cost = w.cost
    from data_load_weeks w
    where s.pid = w.pid and s.week_start = w.week_start and ${inWeeks('s', weeks)}
      and (s.units, s.revenue, s.cost) is distinct from (w.units, w.revenue, w.cost)`.execute(trx);
  await sql`
    insert into sales_history (pid, week_start, units, revenue, cost)
    select w.pid, w.week_start, w.units, w.revenue, w.cost from data_load_weeks w
    where not exists (select 1 from sales_history s
      where s.pid = w.pid and s.week_start = w.week_start and ${inWeeks('s', weeks)})
    order by w.pid, w.week_start`.execute(trx);
  // The records are written as a bulk write: their kept-table triggers stand aside and the read
  // model is brought up to date once for the products and weeks written, not row by row.
  await bulkWrite(trx, () =>
    isFewWeeks ? writeWeeksNoted(trx, { ...change, weeks }) : writeWeeks(trx, { ...change, weeks }),
  );
}

/**
 * Loads of up to this many weeks (the weekly actuals, a correction) have the product totals take
 * the written weeks' differences; a longer history recounts its products' weeks, which costs less
 * than noting every record it writes.
 */
const WEEKS_BY_DIFFERENCES = 13;

type RecordsChange = { by: string; currentWeek: string; recordsFrom: string; weeks: CheckedWeeks };

/** The record columns a history load gives the records it inserts (every other one left null). */
const INSERTED_RECORD_COLUMNS = [
  'act_bkg_units',
  'act_rev_dlrs',
  'act_bkg_cost',
  'last_updated_at',
  'last_updated_by',
];

/** Per product, the first and last week a write wrote and whether it inserted and updated records. */
type WrittenRange = { pid: string; first: string; last: string; inserted: boolean; updated: boolean };

/** The keys of a write that returned its written ranges. */
const keysOf = (rows: readonly WrittenRange[], written?: string): BulkKeys => {
  const inserted = rows.some((r) => r.inserted);
  const updated = rows.some((r) => r.updated);
  return {
    pids: rows.map((r) => r.pid),
    // A load that only updated actuals rebuilds only the kept tables that read what it set; one
    // that only inserted skips the tables of records with notes or overrides, which it never writes.
    columns: !inserted ? UPDATED_RECORD_COLUMNS : !updated ? INSERTED_RECORD_COLUMNS : undefined,
    inserts: inserted && !updated,
    weeks: rows.length
      ? {
          first: rows.reduce((a, r) => (r.first < a ? r.first : a), rows[0]!.first),
          last: rows.reduce((a, r) => (r.last > a ? r.last : a), rows[0]!.last),
        }
      : undefined,
    written,
  };
};

/**
 * The checked weeks into the records: the records to update are locked and their has_data read
 * first, and every record written is noted (data_load_written), so the product totals take the
 * written weeks' differences instead of recounting every week of each product.
 */
async function writeWeeksNoted(trx: Transaction<Database>, change: RecordsChange): Promise<BulkKeys> {
  await sql`create temp table data_load_written on commit drop as
    select r.pid, r.week_start, true as was_present, r.has_data as had_data,
      r.act_bkg_units::numeric as old_units, r.act_rev_dlrs::numeric as old_revenue,
      r.act_bkg_cost::numeric as old_cost
    from demand_records r join data_load_weeks w on r.pid = w.pid and r.week_start = w.week_start
    where ${inWeeks('r', change.weeks)} and (r.act_bkg_units, r.act_rev_dlrs, r.act_bkg_cost) is distinct from (w.units, w.revenue, w.cost)
    order by r.pid, r.week_start
    for update of r`.execute(trx);
  await sql`
    update demand_records r set act_bkg_units = w.units, act_rev_dlrs = w.revenue, act_bkg_cost = w.cost,
      last_updated_at = now(), last_updated_by = ${change.by}, version = r.version + 1
    from data_load_written x join data_load_weeks w on w.pid = x.pid and w.week_start = x.week_start
    where r.pid = x.pid and r.week_start = x.week_start and ${inWeeks('r', change.weeks)}`.execute(trx);
  await sql`
    with inserted as (
      insert into demand_records (pid, week_start, act_bkg_units, act_rev_dlrs, act_bkg_cost, last_updated_at, last_updated_by)
      select w.pid, w.week_start, w.units, w.revenue, w.cost, now(), ${change.by}
      from data_load_weeks w
      where w.week_start >= ${change.recordsFrom}::date and w.week_start < ${change.currentWeek}::date
        and not exists (select 1 from demand_records r
          where r.pid = w.pid and r.week_start = w.week_start and ${inWeeks('r', change.weeks)})
      order by w.pid, w.week_start
      on conflict (pid, week_start) do nothing
      returning pid, week_start)
    insert into data_load_written (pid, week_start, was_present, had_data)
    select pid, week_start, false, false from inserted`.execute(trx);
  await sql`create unique index on data_load_written (pid, week_start)`.execute(trx);
  await sql`analyze data_load_written`.execute(trx);
  const { rows } = await sql<WrittenRange>`
    select pid, min(week_start)::text as first, max(week_start)::text as last,
      bool_or(not was_present) as inserted, bool_or(was_present) as updated
    from data_load_written group by pid`.execute(trx);
  await noteExtremesOfActuals(
    trx,
    rows.map((r) => r.pid),
  );
  return { ...keysOf(rows, 'data_load_written'), isExtremesNoted: true };
}

/** The actuals a load writes, and each one's bound columns on a stale mark (migration 0045). */
const ACTUALS = [
  { column: 'act_bkg_units', old: 'old_units' },
  { column: 'act_rev_dlrs', old: 'old_revenue' },
  { column: 'act_bkg_cost', old: 'old_cost' },
] as const;

/**
 * The sort extremes of the products a noted load wrote. Few products are refreshed at once (as
 * the records' trigger does); more are marked stale with the bounds of what the load moved, as
 * the trigger marks a large statement's products: each actual's rises and falls summed per
 * product (a null counted as 0) and the update time written. A bounded mark lets a figure-sorted
 * page skip the product unless those bounds can reach the page; an unbounded one (what the
 * read model's bulk apply sets, knowing no changes) made every written product a candidate until
 * the refresher had recounted it.
 */
async function noteExtremesOfActuals(trx: Transaction<Database>, pids: readonly string[]): Promise<void> {
  if (pids.length === 0) return;
  if (pids.length <= EXTREMES_REFRESHED_AT_ONCE) {
    await sql`select note_product_extremes(${[...pids]}::text[])`.execute(trx);
    return;
  }
  const bounds = ACTUALS.flatMap((a) => [`${a.column}_up`, `${a.column}_down`]);
  const merged = [
    ...bounds.map((b) => `${b} = nullif(coalesce(s.${b}, 0) + coalesce(excluded.${b}, 0), 0)`),
    'last_updated_at_hi = greatest(s.last_updated_at_hi, excluded.last_updated_at_hi)',
    'last_updated_at_lo = least(s.last_updated_at_lo, excluded.last_updated_at_lo)',
  ];
  await sql`
    insert into demand_product_extremes_stale as s (pid, mark, bounded, ${sql.raw(bounds.join(', '))},
      last_updated_at_hi, last_updated_at_lo)
    select d.pid, txid_current(), true, ${sql.raw(
      ACTUALS.flatMap((a) => [
        `sum(d.${a.column}) filter (where d.${a.column} > 0)`,
        `sum(d.${a.column}) filter (where d.${a.column} < 0)`,
      ]).join(', '),
    )}, max(d.last_updated_at), min(d.last_updated_at)
    from (
      select x.pid, r.last_updated_at, ${sql.raw(
        ACTUALS.map(
          (a) => `coalesce(r.${a.column}::numeric, 0) - coalesce(x.${a.old}, 0) as ${a.column}`,
        ).join(', '),
      )}
      from data_load_written x join demand_records r on r.pid = x.pid and r.week_start = x.week_start) d
    group by d.pid order by d.pid
    on conflict (pid) do update set mark = excluded.mark, bounded = s.bounded and excluded.bounded,
      ${sql.raw(merged.join(', '))}`.execute(trx);
}

/**
 * The checked weeks into the records in one statement, for the read model to recount. The
 * products of the slices written are locked first, as the read model's bulk apply locks them
 * after the write (the same rows in the same order, so its lock is then one already held): no
 * other transaction can insert a record of those products until this one ends (an insert's
 * foreign key locks its product's key, which waits for this lock), so the records found missing
 * are inserted plainly, not as an upsert's speculative insert with its extra key probe and log
 * record per row.
 */
async function writeWeeks(trx: Transaction<Database>, change: RecordsChange): Promise<BulkKeys> {
  await sql`select 1 from products p where (p.client_id, p.bu, p.pf, p.region) in (
      select distinct client_id, bu, pf, region from products
      where pid in (select w.pid from data_load_weeks w))
    order by p.pid for update of p`.execute(trx);
  const { rows } = await sql<WrittenRange>`
    with updated as (
      update demand_records r set act_bkg_units = w.units, act_rev_dlrs = w.revenue, act_bkg_cost = w.cost,
        last_updated_at = now(), last_updated_by = ${change.by}, version = r.version + 1
      from data_load_weeks w
      where r.pid = w.pid and r.week_start = w.week_start and ${inWeeks('r', change.weeks)}
        and (r.act_bkg_units, r.act_rev_dlrs, r.act_bkg_cost) is distinct from (w.units, w.revenue, w.cost)
      returning r.pid, r.week_start),
    inserted as (
      insert into demand_records (pid, week_start, act_bkg_units, act_rev_dlrs, act_bkg_cost, last_updated_at, last_updated_by)
      select w.pid, w.week_start, w.units, w.revenue, w.cost, now(), ${change.by}
      from data_load_weeks w
      where w.week_start >= ${change.recordsFrom}::date and w.week_start < ${change.currentWeek}::date
        and not exists (select 1 from demand_records r
          where r.pid = w.pid and r.week_start = w.week_start and ${inWeeks('r', change.weeks)})
      -- In key order: each index of the records (and the products' key the foreign key probes) is
      -- then written and read page after page, not at a random page per row.
      order by w.pid, w.week_start
      returning pid, week_start)
    select pid, min(week_start)::text as first, max(week_start)::text as last, bool_or(inserted) as inserted,
      bool_or(not inserted) as updated
    from (select *, false as inserted from updated union all select *, true from inserted) x
    group by pid`.execute(trx);
  return keysOf(rows);
}
