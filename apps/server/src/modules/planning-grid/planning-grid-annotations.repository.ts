import { isBoundedRange } from '@ps/domain';
import { sql, type RawBuilder } from 'kysely';
import { attributeFilter, groupName, periodKey, productFilter, weekFilter } from './planning-grid.sql';
import type { GroupQuery } from './planning-grid.repository';

/**
 * Runs `groups` (a query whose rows carry g and k) and adds each group's comments and reason
 * codes in the same statement: under load every round trip waits its turn for a pool connection
 * and the event loop, so a page costs one query, not two.
 */
export function withAnnotations(
  q: GroupQuery,
  groups: RawBuilder<unknown>,
  order: RawBuilder<unknown> | null,
) {
  const annotations = !isDigestQuery(q)
    ? recordAnnotations(q)
    : q.drillDown === 'none'
      ? digestAnnotations(q)
      : q.drillDown !== 'weekly'
        ? periodDigestAnnotations(q)
        : isUnitWeekQuery(q)
          ? unitWeekDigestAnnotations(q)
          : weeklyDigestAnnotations(q);
  return sql`
    with pg as materialized (${groups}),
    ${annotations},
    ca as (select g, k, array_agg(value order by pos) as comments from b where kind = 'comment' group by g, k),
    ra as (select g, k, array_agg(value order by pos) as codes from b where kind = 'code' group by g, k)
    select pg.*, ca.comments, ra.codes
    from pg left join ca on ca.g = pg.g and ca.k = pg.k left join ra on ra.g = pg.g and ra.k = pg.k
    ${order ? sql`order by ${order}` : sql``}`;
}

/**
 * Family and business-unit rows filtered by attributes only take their annotations from a digest:
 * per slice without a drill-down (migration 0033), per slice and period by month, quarter or year
 * (0034) and by week (0044; business units by week per business unit, 0046). A few rows per slice
 * (and period) instead of every annotated record of the page's families, whose number grows with
 * the products and, read from the records, was most of a large data set's page time.
 */
function isDigestQuery(q: GroupQuery): boolean {
  // Over some weeks only, a digest above the week would bring notes from the weeks left out.
  const isCut = isBoundedRange(q.filters.weeks) && q.drillDown !== 'weekly';
  return (q.viewLevel === 'category' || q.viewLevel === 'business_unit') && !q.filters.search && !isCut;
}

/** CTE b: (g, k, kind, value, pos), each distinct annotation of a page group at its first position. */
function digestAnnotations(q: GroupQuery): RawBuilder<unknown> {
  const g = groupName(q.viewLevel, 'd');
  return sql`b as (
    select ${g} as g, ''::text as k, d.kind, d.value, min(d.first_pos) as pos
    from demand_annotation_digest d
    where ${attributeFilter(q.filters, 'd')} and ${g} = any(array(select g from pg))
    group by 1, 3, 4)`;
}

/** CTE b from the digest per slice and period (the page's periods are its groups' keys). */
function periodDigestAnnotations(q: GroupQuery): RawBuilder<unknown> {
  const g = groupName(q.viewLevel, 'd');
  // Joined to the page's groups by hash: testing each digest row against arrays of the page's
  // names and periods cost more than reading the rows.
  return sql`b as (
    select pk.g, pk.k, d.kind, d.value, min(d.first_pos) as pos
    from demand_annotation_period_digest d
    join (select distinct g, k from pg) pk on pk.k = d.period and pk.g = ${g}
    where d.drill_down = ${q.drillDown} and ${attributeFilter(q.filters, 'd')}
    group by 1, 2, 3, 4)`;
}

/**
 * CTE b from the digest by week, read by its primary key: the page's groups give their slices (from
 * the per-slice counts, a row per slice), and each slice and week on the page its few rows. A
 * weekly digest holds about as many rows as the annotated records on small data sets, so reading
 * it whole (by hash, as the coarser grains are) cost more than the records' path (ADR 0009).
 */
function weeklyDigestAnnotations(q: GroupQuery): RawBuilder<unknown> {
  const g = groupName(q.viewLevel, 's');
  return sql`b as (
    select pk.g, pk.k, d.kind, d.value, min(d.first_pos) as pos
    from (select distinct g, k from pg) pk
    join demand_slice_product_counts s on ${g} = pk.g and ${attributeFilter(q.filters, 's')}
    cross join lateral (
      select d.kind, d.value, d.first_pos from demand_annotation_period_digest d
      where d.drill_down = 'weekly' and d.client_id = s.client_id and d.bu = s.bu and d.pf = s.pf
        and d.region = s.region and d.period = pk.k
      -- Kept a subquery: flattened, it was hashed against every weekly row of the digest.
      offset 0) d
    group by 1, 2, 3, 4)`;
}

/**
 * Business-unit rows by week, unless a family or region filter splits business units: their
 * digest per business unit and week (migration 0046) holds a row per distinct note, where the
 * slices' weekly digest holds one per slice and note, a number that grows with the products.
 */
function isUnitWeekQuery(q: GroupQuery): boolean {
  return q.viewLevel === 'business_unit' && !q.filters.pf?.length && !q.filters.region?.length;
}

/**
 * CTE b from the digest per business unit and week, read by its primary key: the page's groups
 * give their clients' business units (a group name can stand for several: blank ones are all
 * Unassigned), and each of those and week on the page its few rows.
 */
function unitWeekDigestAnnotations(q: GroupQuery): RawBuilder<unknown> {
  return sql`b as (
    select pk.g, pk.k, d.kind, d.value, min(d.first_pos) as pos
    from (select distinct g, k from pg) pk
    join (
      select distinct s.client_id, s.bu, ${groupName(q.viewLevel, 's')} as g
      from demand_slice_product_counts s where ${attributeFilter(q.filters, 's')}) u on u.g = pk.g
    cross join lateral (
      select d.kind, d.value, d.first_pos from demand_annotation_unit_digest d
      where d.client_id = u.client_id and d.bu = u.bu and d.period = pk.k
      offset 0) d
    group by 1, 2, 3, 4)`;
}

/**
 * The same from the records of the page's groups, for product rows and text searches.
 * Annotations are sparse (a partial index), and only those of the page's group names are read.
 */
function recordAnnotations(q: GroupQuery): RawBuilder<unknown> {
  const g = groupName(q.viewLevel, 'p');
  const byProduct = q.viewLevel === 'sku' || q.viewLevel === 'none';
  // Materialized so that the planner joins records and products on their own (the page's groups
  // give it no useful row estimate) and only then keeps the page's groups.
  return sql`a as materialized (
      select ${g} as g, ${periodKey(q.drillDown, sql`r.week_start`)} as k, btrim(r.comments) as c,
        r.reason_code as rc, (r.pid || chr(1) || r.week_start::text) collate "C" as pos
      from demand_records r join products p on p.pid = r.pid
      where (r.comments is not null or r.reason_code is not null)
        and ${productFilter(q.filters)}${weekFilter(q.filters, 'r.week_start')}
        and ${byProduct ? sql`r.pid` : g} = any(array(select distinct g from pg))),
    pa as (select a.* from a join pg on pg.g = a.g and pg.k = a.k),
    b as (
      select g, k, 'comment' as kind, c as value, min(pos) as pos from pa where c <> '' group by g, k, c
      union all
      select g, k, 'code', rc, min(pos) from pa where rc is not null group by g, k, rc)`;
}
