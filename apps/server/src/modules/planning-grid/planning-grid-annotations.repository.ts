import { sql, type RawBuilder } from 'kysely';
import { groupName, periodKey, productFilter } from './planning-grid.sql';
import type { GroupQuery } from './planning-grid.repository';

/**
 * Runs `groups` (a query whose rows carry g and k) and adds each group's comments and reason
 * codes in the same statement: under load every round trip waits its turn for a pool connection
 * and the event loop, so a page costs one query, not two. Annotations are sparse (a partial
 * index), and only those of the page's group names are read.
 */
export function withAnnotations(
  q: GroupQuery,
  groups: RawBuilder<unknown>,
  order: RawBuilder<unknown> | null,
) {
  const g = groupName(q.viewLevel, 'p');
  const byProduct = q.viewLevel === 'sku' || q.viewLevel === 'none';
  // Materialized so that the planner joins records and products on their own (the page's groups
  // give it no useful row estimate) and only then keeps the page's groups.
  return sql`
    with pg as materialized (${groups}),
    a as materialized (
      select ${g} as g, ${periodKey(q.drillDown, sql`r.week_start`)} as k, btrim(r.comments) as c,
        r.reason_code as rc, (r.pid || chr(1) || r.week_start::text) collate "C" as pos
      from demand_records r join products p on p.pid = r.pid
      where (r.comments is not null or r.reason_code is not null)
        and ${productFilter(q.filters)}
        and ${byProduct ? sql`r.pid` : g} = any(array(select distinct g from pg))),
    b as (select a.* from a join pg on pg.g = a.g and pg.k = a.k),
    c as (select g, k, c, min(pos) as pos from b where c <> '' group by g, k, c),
    rc as (select g, k, rc, min(pos) as pos from b where rc is not null group by g, k, rc),
    ca as (select g, k, array_agg(c order by pos) as comments from c group by g, k),
    ra as (select g, k, array_agg(rc order by pos) as codes from rc group by g, k)
    select pg.*, ca.comments, ra.codes
    from pg left join ca on ca.g = pg.g and ca.k = pg.k left join ra on ra.g = pg.g and ra.k = pg.k
    ${order ? sql`order by ${order}` : sql``}`;
}
