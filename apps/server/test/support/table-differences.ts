import { sql, type RawBuilder } from 'kysely';

/**
 * How many rows tables (or queries) `a` and `b` do not share, compared as values both ways
 * (EXCEPT each way): 0 when a kept table equals its rebuild.
 */
export const rowsDiffering = (a: string, b: string): RawBuilder<number> =>
  sql.raw<number>(`(select count(*) from ((select * from ${a} except select * from ${b})
    union all (select * from ${b} except select * from ${a})) d)::int`);
