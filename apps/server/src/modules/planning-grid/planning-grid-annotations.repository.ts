import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { GridCell } from '@ps/domain';
import type { Database } from '../../db/schema';
import { gridPositionSql } from '../../read-model';
import { groupName, periodKey, periodSpan, productFilter, weekFilter } from './planning-grid.sql';
import type { GroupQuery } from './planning-grid.repository';

/**
 * Runs `groups` (a query whose rows carry g and k) in grid order, without notes: a grid page's
 * rows. Their notes come from `cellNotes`, which the grid reads for the cells on screen once the
 * page is there: read in the page's statement, the notes of a coarse page (every annotated record
 * of its business units over its weeks) cost more than its figures.
 */
export function withoutAnnotations(
  groups: RawBuilder<unknown>,
  order: RawBuilder<unknown> | null,
): RawBuilder<unknown> {
  return sql`
    with pg as materialized (${groups})
    select pg.*, null::text[] as comments, null::text[] as codes, null::int as "commentCount" from pg
    ${order ? sql`order by ${order}` : sql``}`;
}

/** A cell's notes as SQL gives them: its distinct comments and codes in grid order, its comment count. */
export type CellNotesRow = {
  g: string;
  k: string;
  comments: string[] | null;
  codes: string[] | null;
  commentCount: number;
};

/**
 * The notes of the given cells (each a group and period key of the query's view), read in one
 * statement keyed by them (see withAnnotations).
 */
export async function cellNotes(
  db: Kysely<Database>,
  q: GroupQuery,
  cells: readonly GridCell[],
): Promise<CellNotesRow[]> {
  if (cells.length === 0) return [];
  const cellRows = sql`select g, k from unnest(${cells.map((c) => c.group)}::text[], ${cells.map((c) => c.periodKey)}::text[]) as c(g, k)`;
  const { rows } = await withAnnotations(q, cellRows, null).execute(db);
  return rows as CellNotesRow[];
}

/**
 * Runs `groups` (a query whose rows carry g and k) and adds each group's notes in the same
 * statement: its distinct comments and reason codes in grid order, and how many of its records
 * carry a comment. A saved cell's row and the notes read of the cells on screen use it.
 *
 * The notes come from one read of the records keyed by the page's cells: the products of the
 * page's groups, the weeks of its periods (one range from the first period's first week to the
 * last one's last week), through the annotated records' partial indexes, which carry the comment
 * and the code so that the read never visits the table. Records of a group and period that lie in
 * the range but are not a cell of the page (a business unit's weeks on the page next to another
 * one's) are read and left out: the range keeps the read to the page's weeks, where the cells
 * alone would take one index probe per product and period. A family or business-unit page over
 * periods reads the annotated records of that range first and their products by key, since its
 * groups may hold any number of products.
 */
export function withAnnotations(
  q: GroupQuery,
  groups: RawBuilder<unknown>,
  order: RawBuilder<unknown> | null,
): RawBuilder<unknown> {
  const g = groupName(q.viewLevel, 'p');
  const span = periodSpan(q.drillDown, sql`c.k`);
  const inWeeks = sql`(r.comments is not null or r.reason_code is not null)${weekFilter(q.filters, 'r.week_start')}${
    span
      ? sql` and r.week_start >= (select first_week from weeks) and r.week_start < (select end_week from weeks)`
      : sql``
  }`;
  const note = sql`${periodKey(q.drillDown, sql`r.week_start`)} as k, btrim(r.comments) as c,
        r.reason_code as rc, ${sql.raw(gridPositionSql('r'))} as pos`;
  // Family and business-unit pages over periods read the notes of their weeks (below); without a
  // drill-down every week is the page's, and reading each annotated record's product by key cost
  // more than hashing the groups' products.
  const byWeeks = (q.viewLevel === 'category' || q.viewLevel === 'business_unit') && span !== null;
  return sql`
    with pg as materialized (${groups}),
    cells as materialized (select distinct g, k from pg),
    ${
      byWeeks
        ? sql``
        : sql`-- The page's products, materialized so that the planner joins them to the records on their
    -- own (the page's groups give it no useful row estimate).
    pp as materialized (
      select p.pid, ${g} as g from products p
      where ${productFilter(q.filters)} and ${g} = any(array(select distinct g from cells))),`
    }
    ${span ? sql`weeks as (select min(${span.from}) as first_week, max(${span.to}) as end_week from cells c),` : sql``}
    a as (${
      byWeeks
        ? // A family or business unit may hold any number of products (an import's 99,300 new SKUs
          // in one family): the annotated records of the page's weeks are read, each with its
          // product by key, rather than every product of the page's groups (read, hashed and
          // joined to the page's cells: 99,351 products × 48 weeks)
          sql`
      select ${g} as g, ${note}
      from demand_records r join products p on p.pid = r.pid
      where ${inWeeks} and ${productFilter(q.filters)} and ${g} = any(array(select distinct g from cells))`
        : sql`
      select pp.g, ${note}
      from pp join demand_records r on r.pid = pp.pid
      where ${inWeeks}`
    }),
    pa as materialized (select a.* from a join cells on cells.g = a.g and cells.k = a.k),
    -- Each distinct comment with its first position and how many records carry it.
    ca as (
      select g, k, array_agg(c order by pos) as comments, sum(n)::int as comment_count
      from (select g, k, c, min(pos) as pos, count(*) as n from pa where c <> '' group by g, k, c) d
      group by g, k),
    ra as (
      select g, k, array_agg(rc order by pos) as codes
      from (select g, k, rc, min(pos) as pos from pa where rc is not null group by g, k, rc) d group by g, k)
    select pg.*, ca.comments, ra.codes, coalesce(ca.comment_count, 0) as "commentCount"
    from pg
      left join ca on ca.g = pg.g and ca.k = pg.k
      left join ra on ra.g = pg.g and ra.k = pg.k
    ${order ? sql`order by ${order}` : sql``}`;
}
