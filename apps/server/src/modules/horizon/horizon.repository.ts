import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, DemandRecordsTable } from '../../db/schema';

export type HorizonRow = {
  last_rolled_week: string;
  horizon_weeks: number;
  rolled_at: Date;
  records_added: number;
  rolling_to: string | null;
  rolling_since: Date | null;
};

export async function readHorizon(db: Kysely<Database>): Promise<HorizonRow | undefined> {
  return db
    .selectFrom('plan_horizon')
    .select([
      'last_rolled_week',
      'horizon_weeks',
      'rolled_at',
      'records_added',
      'rolling_to',
      'rolling_since',
    ])
    .executeTakeFirst();
}

/** A roll's claim older than this is taken to belong to a process that died mid-roll. */
const STALE_CLAIM_SECONDS = 600;

/**
 * Claims the roll to `week` under the row lock: answers false when the plan is already rolled to
 * that week or another process holds a fresh claim. The row is created on
 * first use, so a database from before the roll gets one too.
 */
export async function claimRoll(db: Kysely<Database>, week: string, horizonWeeks: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`insert into plan_horizon (last_rolled_week, horizon_weeks)
      values (${week}::date - 7, ${horizonWeeks}) on conflict (id) do nothing`.execute(trx);
    const { rows } = await sql<{ is_due: boolean; is_claimed: boolean }>`
      select last_rolled_week < ${week}::date as is_due,
        (rolling_since is not null
          and rolling_since > now() - make_interval(secs => ${STALE_CLAIM_SECONDS})) as is_claimed
      from plan_horizon for update`.execute(trx);
    const state = rows[0]!;
    if (!state.is_due || state.is_claimed) return false;
    await sql`update plan_horizon set rolling_to = ${week}::date, rolling_since = now()`.execute(trx);
    return true;
  });
}

export async function finishRoll(
  db: Kysely<Database>,
  week: string,
  horizonWeeks: number,
  recordsAdded: number,
): Promise<void> {
  await sql`update plan_horizon set last_rolled_week = ${week}::date, horizon_weeks = ${horizonWeeks},
    rolled_at = now(), records_added = ${recordsAdded}, rolling_to = null, rolling_since = null`.execute(db);
}

/** A failed roll lets go of its claim, so the next check tries again at once. */
export async function releaseRoll(db: Kysely<Database>): Promise<void> {
  await sql`update plan_horizon set rolling_to = null, rolling_since = null`.execute(db);
}

export async function productIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('products').select('pid').orderBy('pid').execute();
  return rows.map((row) => row.pid);
}

export type MissingWeek = {
  pid: string;
  week_start: string;
  unit_cost: number;
  unit_price: number;
  ensemble_fcst_units: number | null;
  naive_fcst_units: number | null;
};

/**
 * The weeks from `first` to `last` that these products have no record for, each with the forecast
 * it carries until a forecast run writes its own: the product's forecast for the same week one
 * season (52 weeks) earlier, else its latest forecast (the last week that has one).
 *
 * The chunk's existing weeks of the horizon are read once, a range of the records' key per product,
 * and taken from the horizon's product-weeks in one hashed set difference (EXCEPT): probing the key
 * for each product-week (on a weekly roll every product misses only the newest week) cost one index
 * descent per product-week, and an anti-join against the read weeks was planned as a merge on the
 * product alone, comparing each product-week with all of its product's weeks. The season-earlier
 * forecast is read by its key and the latest forecast once per product that misses a week, walking
 * its records backwards from the newest (the newest week that has one is almost always the first
 * read).
 */
export async function missingWeeks(
  db: Kysely<Database>,
  pids: readonly string[],
  first: string,
  last: string,
): Promise<MissingWeek[]> {
  const { rows } = await sql<MissingWeek>`
    with missing as materialized (
      select k.pid, k.week_start, p.unit_cost, p.unit_price
      from (
        select p.pid, w.week::date as week_start from products p
        cross join generate_series(${first}::date, ${last}::date, interval '7 days') as w(week)
        where p.pid = any(${[...pids]}::text[])
        except
        select r.pid, r.week_start from demand_records r
        where r.pid = any(${[...pids]}::text[]) and r.week_start between ${first}::date and ${last}::date
      ) k
      join products p on p.pid = k.pid
    ),
    latest as materialized (
      select l.* from (select distinct m.pid from missing m) m
      cross join lateral (
        select r.pid, r.ensemble_fcst_units, r.naive_fcst_units from demand_records r
        where r.pid = m.pid and r.ensemble_fcst_units is not null
        order by r.week_start desc limit 1) l
    )
    select m.pid, to_char(m.week_start, 'YYYY-MM-DD') as week_start,
      m.unit_cost::float8 as unit_cost, m.unit_price::float8 as unit_price,
      coalesce(s.ensemble_fcst_units, l.ensemble_fcst_units)::float8 as ensemble_fcst_units,
      coalesce(s.naive_fcst_units, l.naive_fcst_units)::float8 as naive_fcst_units
    from missing m
    -- A key lookup per missing week, fenced by the limit: the week series' row estimate is a
    -- default of 1,000 per product, and as a plain join this was planned as a hash of every record.
    left join lateral (
      select s.ensemble_fcst_units, s.naive_fcst_units from demand_records s
      where s.pid = m.pid and s.week_start = m.week_start - 364 and s.ensemble_fcst_units is not null
      limit 1) s on true
    left join latest l on l.pid = m.pid
    order by m.pid, m.week_start`.execute(db);
  return rows;
}

/**
 * New weeks' records. A record that appeared meanwhile (another process, an import) is left as it
 * is: the roll never overwrites a record.
 */
export async function insertRolledRecords(
  db: Kysely<Database>,
  records: ReadonlyArray<Insertable<DemandRecordsTable>>,
): Promise<number> {
  if (records.length === 0) return 0;
  const result = await db
    .insertInto('demand_records')
    .values([...records])
    .onConflict((conflict) => conflict.columns(['pid', 'week_start']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
