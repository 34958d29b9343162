import type { DataLoadCounts } from '@ps/domain';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { collectRefusals, SOURCE, STAGE, type Checked } from './data-loads.repository';

type Trx = Transaction<Database>;
const stage = sql.raw(STAGE);

/** The refusals every inventory layout shares: a PID that is no product, a product not stocked at the site. */
const unknownRows = (stockedAlready: boolean) => sql`
  select s.row_no, 'PID'::text as field,
    'PID ' || s.pid || ' is not a product: load it with the products first' as reason
  from ${stage} s where not exists (select 1 from products p where p.pid = s.pid)
  ${
    stockedAlready
      ? sql`union all
  select s.row_no, 'Site', 'PID ' || s.pid || ' is not stocked at site ' || s.site || ': load its lead time there first'
  from ${stage} s
  where exists (select 1 from products p where p.pid = s.pid)
    and not exists (select 1 from inventory_parameters i where i.pid = s.pid and i.site = s.site)`
      : sql``
  }`;

/** A key given twice in the file: the later rows are refused, naming the first. */
const repeatedKeys = (key: string, field: string, what: string) => sql`
  select x.row_no, ${field}::text, ${sql.raw(what)} || ' is also in row ' || x.first_row
  from (select s.*, first_value(s.row_no) over (partition by ${sql.raw(key)} order by s.row_no) as first_row
    from ${stage} s) x
  where x.row_no <> x.first_row`;

const notRefused = sql`not exists (select 1 from data_load_refused r where r.row_no = s.row_no)`;

async function countChanged(
  trx: Trx,
  from: ReturnType<typeof sql>,
  refused: number,
): Promise<DataLoadCounts> {
  const { rows } = await sql<DataLoadCounts>`
    select count(*) filter (where not c.known)::int as inserted,
      count(*) filter (where c.known and c.changed)::int as updated,
      count(*) filter (where c.known and not c.changed)::int as unchanged,
      0 as refused
    from (${from}) c`.execute(trx);
  return { ...rows[0]!, refused };
}

/**
 * Lead times: refuses unknown PIDs, a product and site twice, and a product whose sites' demand
 * shares would add up to more than 100 %. Each row becomes the product × site's planning
 * parameters: a blank cell keeps the current value (a new row: σ_L 0, review 1 week, replenished
 * at each review); a new site without a share gets what the product's other sites leave, split
 * evenly among the new sites without one; a new site without a region takes the site's region in other rows,
 * else the product's.
 */
export async function checkLeadTimes(trx: Trx): Promise<Checked> {
  await sql`create index on ${stage} (pid, site)`.execute(trx);
  // A product's share after the load, counting new sites without a share as 0.
  await sql`create temp table data_load_shares on commit drop as
    with firsts as (
      select distinct on (s.pid, s.site) s.* from ${stage} s order by s.pid, s.site, s.row_no),
    shares as (
      select f.pid, coalesce(f.demand_share, i.demand_share::float8, 0) as share,
        (f.demand_share is null and i.pid is null) as open_share
      from firsts f left join inventory_parameters i on i.pid = f.pid and i.site = f.site
      union all
      select i.pid, i.demand_share::float8, false from inventory_parameters i
      where i.pid in (select pid from firsts)
        and not exists (select 1 from firsts f where f.pid = i.pid and f.site = i.site))
    select pid, sum(share) as total, count(*) filter (where open_share)::int as open_sites
    from shares group by pid`.execute(trx);
  const { refused, refusals } = await collectRefusals(
    trx,
    sql`${unknownRows(false)}
      union all ${repeatedKeys('s.pid, s.site', 'Site', `'PID ' || x.pid || ' at site ' || x.site`)}
      union all
      select s.row_no, 'Demand Share',
        'The demand shares of PID ' || t.pid || '''s sites would add up to ' || round((t.total * 100)::numeric, 2) || ' %: they must add up to at most 100 %'
      from ${stage} s join data_load_shares t on t.pid = s.pid
      where t.total > 1.00005 and s.demand_share is not null`,
  );
  await sql`create temp table data_load_sites on commit drop as
    with site_regions as (
      select distinct on (site) site, region from inventory_parameters order by site, region)
    select s.row_no, s.pid, s.site, i.pid is not null as known, p.client_id,
      coalesce(s.region, i.region, sr.region, p.region) as region,
      s.lead_time_weeks,
      coalesce(s.lead_time_sd_weeks, i.lead_time_sd_weeks, 0) as lead_time_sd_weeks,
      coalesce(s.review_period_weeks, i.review_period_weeks, 1) as review_period_weeks,
      coalesce(s.replenishment_frequency_weeks, i.replenishment_frequency_weeks, s.review_period_weeks, 1)
        as replenishment_frequency_weeks,
      coalesce(round(s.demand_share::numeric, 4), i.demand_share,
        round((greatest(0, 1 - t.total) / greatest(t.open_sites, 1))::numeric, 4)) as demand_share
    from ${stage} s
      join products p on p.pid = s.pid
      join data_load_shares t on t.pid = s.pid
      left join inventory_parameters i on i.pid = s.pid and i.site = s.site
      left join site_regions sr on sr.site = s.site
    where ${notRefused}`.execute(trx);
  const counts = await countChanged(
    trx,
    sql`select n.known, (n.region, n.lead_time_weeks, n.lead_time_sd_weeks, n.review_period_weeks,
        n.replenishment_frequency_weeks, n.demand_share)
        is distinct from (i.region, i.lead_time_weeks, i.lead_time_sd_weeks, i.review_period_weeks,
        i.replenishment_frequency_weeks, i.demand_share) as changed
      from data_load_sites n left join inventory_parameters i on i.pid = n.pid and i.site = n.site`,
    refused,
  );
  return { counts, refusals };
}

/** Writes checked lead times: each changed parameter of a known row audited, then the rows upserted. */
export async function applyLeadTimes(trx: Trx, change: { by: string }): Promise<void> {
  await sql`
    insert into inventory_audit (client_id, pid, site, field, old_value, new_value, reason_code, comments, changed_by, source)
    select n.client_id, n.pid, n.site, c.field, c.old_value, c.new_value, null, null, ${change.by}, ${SOURCE}
    from data_load_sites n join inventory_parameters i on i.pid = n.pid and i.site = n.site
      cross join lateral (values
        ('region', i.region, n.region),
        ('leadTime', i.lead_time_weeks::text, n.lead_time_weeks::text),
        ('leadTimeSd', i.lead_time_sd_weeks::text, n.lead_time_sd_weeks::text),
        ('reviewPeriod', i.review_period_weeks::text, n.review_period_weeks::text),
        ('replenishmentFreq', i.replenishment_frequency_weeks::text, n.replenishment_frequency_weeks::text),
        ('demandShare', i.demand_share::text, n.demand_share::text)) c(field, old_value, new_value)
    where case when c.field = 'region' then c.old_value <> c.new_value
      else c.old_value::numeric <> c.new_value::numeric end`.execute(trx);
  await sql`
    insert into inventory_parameters as i (pid, site, region, demand_share, lead_time_weeks, lead_time_sd_weeks,
      review_period_weeks, replenishment_frequency_weeks)
    select n.pid, n.site, n.region, n.demand_share, n.lead_time_weeks, n.lead_time_sd_weeks,
      n.review_period_weeks, n.replenishment_frequency_weeks
    from data_load_sites n
    on conflict (pid, site) do update set region = excluded.region, demand_share = excluded.demand_share,
      lead_time_weeks = excluded.lead_time_weeks, lead_time_sd_weeks = excluded.lead_time_sd_weeks,
      review_period_weeks = excluded.review_period_weeks,
      replenishment_frequency_weeks = excluded.replenishment_frequency_weeks, updated_at = now()
    where (i.region, i.demand_share, i.lead_time_weeks, i.lead_time_sd_weeks, i.review_period_weeks,
        i.replenishment_frequency_weeks)
      is distinct from (excluded.region, excluded.demand_share, excluded.lead_time_weeks, excluded.lead_time_sd_weeks,
        excluded.review_period_weeks, excluded.replenishment_frequency_weeks)`.execute(trx);
}

/**
 * Inventory positions: refuses unknown PIDs, a product not stocked at the site, a product, site
 * and day twice, and a day after `today`; counts each against the positions loaded before.
 */
export async function checkPositions(trx: Trx, context: { today: string }): Promise<Checked> {
  await sql`create index on ${stage} (pid, site)`.execute(trx);
  const { refused, refusals } = await collectRefusals(
    trx,
    sql`${unknownRows(true)}
      union all ${repeatedKeys('s.pid, s.site, s.as_of', 'As Of', `'PID ' || x.pid || ' at site ' || x.site || ' on ' || x.as_of`)}
      union all
      select s.row_no, 'As Of', 'As Of ' || s.as_of || ' is after today (' || ${context.today}::date || '): a position is a count already made'
      from ${stage} s where s.as_of > ${context.today}::date`,
  );
  const counts = await countChanged(
    trx,
    sql`select ip.pid is not null as known, ip.on_hand_units is distinct from s.on_hand_units as changed
      from ${stage} s left join inventory_positions ip on ip.pid = s.pid and ip.site = s.site and ip.as_of = s.as_of
      where ${notRefused}`,
    refused,
  );
  return { counts, refusals };
}

/**
 * Writes checked positions, then what reads them: each product × site's on hand is its latest
 * position, and the latest position of a week is that week's stock in the inventory history (a
 * week the history lacks gets a row whose demand is the site's share of the week's sales history).
 */
export async function applyPositions(trx: Trx): Promise<void> {
  await sql`
    insert into inventory_positions as ip (pid, site, as_of, on_hand_units)
    select s.pid, s.site, s.as_of, s.on_hand_units from ${stage} s
    on conflict (pid, site, as_of) do update set on_hand_units = excluded.on_hand_units, loaded_at = now()
      where ip.on_hand_units <> excluded.on_hand_units`.execute(trx);
  await sql`
    update inventory_parameters i set on_hand_units = l.on_hand_units, updated_at = now()
    from (select distinct on (ip.pid, ip.site) ip.pid, ip.site, ip.on_hand_units
      from inventory_positions ip
      where (ip.pid, ip.site) in (select pid, site from ${stage})
      order by ip.pid, ip.site, ip.as_of desc) l
    where i.pid = l.pid and i.site = l.site and i.on_hand_units <> l.on_hand_units`.execute(trx);
  await sql`
    insert into inventory_history as h (pid, site, week_start, demand_units, receipts_units, on_hand_units, lost_units, ordered_units)
    select w.pid, w.site, w.week_start,
      coalesce(round(sh.units * i.demand_share), 0), 0, w.on_hand_units, 0, 0
    from (select distinct on (x.pid, x.site, x.week_start) x.pid, x.site, x.week_start, x.on_hand_units
      from (select ip.*, ip.as_of - extract(dow from ip.as_of)::int as week_start from inventory_positions ip
        where (ip.pid, ip.site) in (select pid, site from ${stage})) x
      where (x.pid, x.site, x.week_start) in
        (select pid, site, as_of - extract(dow from as_of)::int from ${stage})
      order by x.pid, x.site, x.week_start, x.as_of desc) w
      join inventory_parameters i on i.pid = w.pid and i.site = w.site
      left join sales_history sh on sh.pid = w.pid and sh.week_start = w.week_start
    on conflict (pid, site, week_start) do update set on_hand_units = excluded.on_hand_units
      where h.on_hand_units <> excluded.on_hand_units`.execute(trx);
}

/**
 * Open orders: refuses unknown PIDs, a product not stocked at the site, and an order line (order,
 * PID, site) twice; counts each against the lines loaded before.
 */
export async function checkOpenOrders(trx: Trx): Promise<Checked> {
  await sql`create index on ${stage} (pid, site)`.execute(trx);
  const { refused, refusals } = await collectRefusals(
    trx,
    sql`${unknownRows(true)}
      union all ${repeatedKeys('s.order_id, s.pid, s.site', 'Order', `'Order ' || x.order_id || ' of PID ' || x.pid || ' at site ' || x.site`)}`,
  );
  const counts = await countChanged(
    trx,
    sql`select o.order_id is not null as known,
        (o.quantity, o.due_date, o.status) is distinct from (s.quantity, s.due_date, s.status) as changed
      from ${stage} s
        left join inventory_open_orders o on o.order_id = s.order_id and o.pid = s.pid and o.site = s.site
      where ${notRefused}`,
    refused,
  );
  return { counts, refusals };
}

export async function applyOpenOrders(trx: Trx): Promise<void> {
  await sql`
    insert into inventory_open_orders as o (order_id, pid, site, quantity, due_date, status)
    select s.order_id, s.pid, s.site, s.quantity, s.due_date, s.status from ${stage} s
    on conflict (order_id, pid, site) do update set quantity = excluded.quantity, due_date = excluded.due_date,
      status = excluded.status, loaded_at = now()
      where (o.quantity, o.due_date, o.status) is distinct from (excluded.quantity, excluded.due_date, excluded.status)`.execute(
    trx,
  );
}
