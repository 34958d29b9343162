import { PERCENT_FIELDS, SUMMED_FIELDS, fieldSpecOf, type DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';
import { overrideWeightSql } from '../src/read-model';

/** Published plans move at every publish with the triggers off, so their extremes are not kept. */
const KEPT_SUMS = SUMMED_FIELDS.filter((field) => !/^P[12]_Pub_/.test(field)).map(
  (field) => fieldSpecOf(field)!.column!,
);
const PERCENTS = PERCENT_FIELDS.map((field) => fieldSpecOf(field)!.column!);

/** Override weight (spec §9): final units, else actual units, else 1. */
const WEIGHT = overrideWeightSql('r');

/**
 * Each product's extremes computed the plain way, as the reference the kept table must equal: every
 * group of each drill-down (the week itself, its calendar month, quarter and year, the whole)
 * summed with GROUP BY, then the largest and smallest of each figure over the product's groups.
 */
const REFERENCE = `
  with groups as (
    select r.pid, d.drill,
      ${KEPT_SUMS.map((c) => `sum(r.${c}::numeric) as ${c}`).join(', ')},
      ${PERCENTS.map((c) => `sum(r.${c} * ${WEIGHT}) / nullif(sum(${WEIGHT}) filter (where r.${c} is not null), 0) as ${c}`).join(', ')},
      max(r.last_updated_at) as last_updated_at
    from demand_records r
    cross join (values ('w'::"char"), ('m'), ('q'), ('y'), ('n')) d(drill)
    group by r.pid, d.drill, case d.drill
      when 'w' then r.week_start
      when 'm' then date_trunc('month', r.week_start)::date
      when 'q' then date_trunc('quarter', r.week_start)::date
      when 'y' then date_trunc('year', r.week_start)::date end)
  select pid, drill,
    ${[...KEPT_SUMS, ...PERCENTS, 'last_updated_at'].map((c) => `max(${c}) as ${c}_hi, min(${c}) as ${c}_lo`).join(', ')}
  from groups group by pid, drill`;

/**
 * The kept per-product extremes (migrations 0032, 0040) equal a plain recomputation from the
 * records, after the seed and after writes that move a product's largest and smallest values up,
 * down and to nothing.
 */
describe.each(backends)('product extremes refresh on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 60 });
  });
  afterAll(async () => server?.close());

  const differencesFromReference = async () => {
    const columns = [...KEPT_SUMS, ...PERCENTS, 'last_updated_at'].flatMap((c) => [`${c}_hi`, `${c}_lo`]);
    const kept = `select pid, drill, ${columns.join(', ')} from demand_product_extremes`;
    const reference = `select * from (${REFERENCE}) ref`;
    const { rows } = await sql<{ differ: number; kept: number }>`
      select
        (select count(*) from ((${sql.raw(kept)} except ${sql.raw(reference)})
          union all (${sql.raw(reference)} except ${sql.raw(kept)})) d)::int as differ,
        (select count(*) from demand_product_extremes)::int as kept`.execute(server.database.db);
    return rows[0]!;
  };

  it('equals a plain recomputation after the seed and after writes that move the extremes', async () => {
    expect(await differencesFromReference()).toEqual({ differ: 0, kept: 12 * 5 });

    const { body } = await server.request<Ok<{ items: DemandRecord[] }>>(
      'GET',
      '/api/demand-planning/real-data?limit=5000',
    );
    const records = body.data.items;
    // Small statements (at most 32 products) refresh their products at once.
    const save = async (updates: object[]) => {
      const response = await server.request('POST', '/api/demand-planning/real-data/batch', { updates });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };
    const byProduct = (i: number) => records.filter((r) => r.PID === records[i * 60]!.PID);
    const first = byProduct(0);
    await save(
      first.slice(0, 10).map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        version: r.version,
        ...(i % 2 === 0
          ? { SOP_Pln_Ovrd_Units: 100_000 + i }
          : { SOP_Pln_Ovrd_Units: 0, Rev_Pln_Ovrd_Percent: 80 }),
      })),
    );
    expect(await differencesFromReference()).toEqual({ differ: 0, kept: 12 * 5 });

    const second = byProduct(1);
    await save(
      second.slice(20, 30).map((r) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        version: r.version,
        SOP_Pln_Ovrd_Percent: 25,
      })),
    );
    // The raised values back to nothing: the extremes fall back to the other weeks'.
    const current = (
      await server.request<Ok<{ items: DemandRecord[] }>>('GET', '/api/demand-planning/real-data?limit=5000')
    ).body.data.items.filter((r) => r.PID === first[0]!.PID);
    await save(
      current.slice(0, 10).map((r) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        version: r.version,
        SOP_Pln_Ovrd_Units: null,
        Rev_Pln_Ovrd_Percent: null,
      })),
    );
    expect(await differencesFromReference()).toEqual({ differ: 0, kept: 12 * 5 });
  });
});
