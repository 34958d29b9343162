import { addWeeks, importQuarterWeeks, toIsoDate, type ImportRowOutcome, type ServerClock } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planColumns } from '../src/db/demand-record-row';
import type { Database } from '../src/db/schema';
import { rollHorizon } from '../src/modules/horizon';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, TEST_ANCHOR, type TestServer } from './support/test-server';

const HORIZON = 52;
const PRODUCTS = 10;
const PAST = 13;

/** Every record, keyed and compared as text, so any change to an existing one shows. */
const recordsByKey = async (db: Kysely<Database>) => {
  const { rows } = await sql<{ key: string; row: string }>`
    select r.pid || '/' || r.week_start as key, r::text as row from demand_records r`.execute(db);
  return new Map(rows.map((r) => [r.key, r.row]));
};

/** Future weeks (from `week` on) per product. */
const futureWeeksPerProduct = async (db: Kysely<Database>, week: string) => {
  const { rows } = await sql<{ pid: string; weeks: number; first: string; last: string }>`
    select p.pid, count(r.week_start)::int as weeks,
      to_char(min(r.week_start), 'YYYY-MM-DD') as first, to_char(max(r.week_start), 'YYYY-MM-DD') as last
    from products p left join demand_records r on r.pid = p.pid and r.week_start >= ${week}::date
    group by p.pid order by p.pid`.execute(db);
  return rows;
};

/** The kept tables of the read model that differ from their rebuild from the records (none). */
const keptTablesDiffering = async (db: Kysely<Database>) =>
  (await keptTablesVersusRebuild(db)).filter((check) => check.differing > 0);

describe.each(backends)('rolling plan horizon on %s', (backend) => {
  let server: TestServer;
  let db: Kysely<Database>;
  const anchorWeek = toIsoDate(TEST_ANCHOR);
  const nextWeek = toIsoDate(addWeeks(TEST_ANCHOR, 1));

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: PRODUCTS, weeks: PAST + HORIZON, futureWeeks: HORIZON },
      { env: { PLAN_HORIZON_WEEKS: String(HORIZON) } },
    );
    db = server.database.db;
    server.clock.setToday(TEST_ANCHOR);
  });
  afterAll(() => server?.close());

  it("answers the server's today and the horizon's state on GET /api/clock, signed in only", async () => {
    const clock = await server.request<Ok<ServerClock>>('GET', '/api/clock', undefined, { as: 'circor' });
    expect(clock.status).toBe(200);
    const { rolledAt, ...horizon } = clock.body.data.horizon;
    expect(Number.isNaN(Date.parse(rolledAt!))).toBe(false);
    expect({ ...clock.body.data, horizon }).toEqual({
      today: anchorWeek,
      currentWeek: anchorWeek,
      horizon: { weeks: HORIZON, lastRolledWeek: anchorWeek, recordsAdded: 0, rolling: null },
    });
    server.clock.setToday(new Date('2026-11-19T00:00:00Z'));
    const moved = await server.request<Ok<ServerClock>>('GET', '/api/clock');
    expect(moved.body.data).toMatchObject({ today: '2026-11-19', currentWeek: anchorWeek });
    server.clock.setToday(TEST_ANCHOR);
    const anonymous = await server.request<Failure>('GET', '/api/clock', undefined, { as: 'anonymous' });
    expect(anonymous.status).toBe(401);
  });

  it('does nothing while the week has not changed', async () => {
    const before = await recordsByKey(db);
    expect(await rollHorizon(db, server.clock, { horizonWeeks: HORIZON })).toEqual({
      rolled: false,
      week: anchorWeek,
      reason: 'up to date',
    });
    expect(await recordsByKey(db)).toEqual(before);
  });

  it('adds the new week for every product, carrying the same week of last season, and touches nothing else', async () => {
    const before = await recordsByKey(db);
    expect((await futureWeeksPerProduct(db, anchorWeek)).every((p) => p.weeks === HORIZON)).toBe(true);
    server.clock.advanceWeeks(1);
    // Two processes seeing the week change at once: one rolls, the other finds it claimed or done.
    const [first, second] = await Promise.all([
      rollHorizon(db, server.clock, { horizonWeeks: HORIZON }),
      rollHorizon(db, server.clock, { horizonWeeks: HORIZON }),
    ]);
    const outcomes = [first, second].sort((a, b) => Number(b.rolled) - Number(a.rolled));
    expect(outcomes[0]).toMatchObject({ rolled: true, week: nextWeek, recordsAdded: PRODUCTS });
    expect(outcomes[1]).toMatchObject({ rolled: false, week: nextWeek });

    const after = await recordsByKey(db);
    expect(after.size).toBe(before.size + PRODUCTS);
    for (const [key, row] of before) expect(after.get(key), key).toBe(row);

    const lastWeek = toIsoDate(addWeeks(TEST_ANCHOR, HORIZON));
    const perProduct = await futureWeeksPerProduct(db, nextWeek);
    expect(perProduct).toHaveLength(PRODUCTS);
    for (const product of perProduct)
      expect(product).toMatchObject({ weeks: HORIZON, first: nextWeek, last: lastWeek });

    // The new week carries the forecast of the same week a season (52 weeks) earlier, with its plan chain.
    const { rows } = await sql<{
      pid: string;
      unit_cost: number;
      unit_price: number;
      season: number;
      ensemble_fcst_units: number;
      final_pln_units: number;
      final_pln_rev_dlrs: number;
      p1_pub_pln_units: number | null;
      act_bkg_units: number | null;
      rev_pln_ovrd_percent: number | null;
    }>`select r.pid, p.unit_cost::float8 as unit_cost, p.unit_price::float8 as unit_price,
        s.ensemble_fcst_units::float8 as season, r.ensemble_fcst_units::float8 as ensemble_fcst_units,
        r.final_pln_units::float8 as final_pln_units, r.final_pln_rev_dlrs::float8 as final_pln_rev_dlrs,
        r.p1_pub_pln_units, r.act_bkg_units, r.rev_pln_ovrd_percent
      from demand_records r join products p on p.pid = r.pid
      join demand_records s on s.pid = r.pid and s.week_start = r.week_start - 364
      where r.week_start = ${lastWeek}::date order by r.pid`.execute(db);
    expect(rows).toHaveLength(PRODUCTS);
    for (const row of rows) {
      const plan = planColumns(
        {
          ensemble_fcst_units: row.season,
          rev_pln_ovrd_percent: null,
          rev_pln_ovrd_units: null,
          sop_pln_ovrd_percent: null,
          sop_pln_ovrd_units: null,
        },
        row,
      );
      expect(row).toMatchObject({
        ensemble_fcst_units: row.season,
        final_pln_units: plan.final_pln_units,
        final_pln_rev_dlrs: plan.final_pln_rev_dlrs,
        p1_pub_pln_units: null,
        act_bkg_units: null,
        rev_pln_ovrd_percent: null,
      });
    }
    expect(await keptTablesDiffering(db)).toEqual([]);
    const state = await server.request<Ok<ServerClock>>('GET', '/api/clock');
    expect(state.body.data.horizon).toMatchObject({ lastRolledWeek: nextWeek, recordsAdded: PRODUCTS });
  });

  it('fills the whole horizon of a product without records, and several weeks at once after a pause', async () => {
    await db
      .insertInto('products')
      .values({
        pid: 'NEW-1',
        client_id: 'internal',
        bu: 'Flow',
        pf: 'Valves',
        class: 'C',
        region: 'EMEA',
        site: 'Berlin',
        entity_type: 'Purchased',
        unit_cost: 10,
        unit_price: 15,
        rank: null,
      })
      .execute();
    server.clock.advanceWeeks(3);
    const week = toIsoDate(addWeeks(TEST_ANCHOR, 4));
    const outcome = await rollHorizon(db, server.clock, { horizonWeeks: HORIZON });
    expect(outcome).toMatchObject({ rolled: true, week, recordsAdded: PRODUCTS * 3 + HORIZON });
    const perProduct = await futureWeeksPerProduct(db, week);
    expect(perProduct.map((p) => p.weeks)).toEqual(perProduct.map(() => HORIZON));
    // No forecast to carry yet: the weeks wait for the next forecast run.
    const { rows } = await sql<{ forecasts: number }>`
      select count(ensemble_fcst_units)::int as forecasts from demand_records where pid = 'NEW-1'`.execute(
      db,
    );
    expect(rows[0]!.forecasts).toBe(0);
    expect(await keptTablesDiffering(db)).toEqual([]);
  });

  it('fills a gap in a product’s horizon with its latest forecast, and a product with history only without one', async () => {
    // The clock is in week anchor + 4; the next roll covers anchor + 5 to anchor + 56.
    const week = (n: number) => toIsoDate(addWeeks(TEST_ANCHOR, n));
    const product = (pid: string) => ({
      pid,
      client_id: 'internal',
      bu: 'Flow',
      pf: 'Valves',
      class: 'C',
      region: 'EMEA',
      site: 'Berlin',
      entity_type: 'Purchased',
      unit_cost: 10,
      unit_price: 15,
      rank: null,
    });
    await db
      .insertInto('products')
      .values([product('GAP-1'), product('HIST-1')])
      .execute();
    // GAP-1: every horizon week but anchor + 20 (a gap) and anchor + 56 (the new week). Forecast 5
    // everywhere, except anchor + 54 (7, naive 6, its latest forecast: anchor + 55 has none) and
    // anchor + 4, the week a season before anchor + 56 (11, no naive forecast).
    const gapWeeks = Array.from({ length: 51 }, (_, i) => i + 5).filter((n) => n !== 20);
    await db
      .insertInto('demand_records')
      .values([
        ...gapWeeks.map((n) => ({
          pid: 'GAP-1',
          week_start: week(n),
          ensemble_fcst_units: n === 55 ? null : n === 54 ? 7 : 5,
          naive_fcst_units: n === 55 ? null : n === 54 ? 6 : 4,
        })),
        { pid: 'GAP-1', week_start: week(4), ensemble_fcst_units: 11, naive_fcst_units: null },
        // HIST-1: three weeks of actuals, never a forecast.
        ...[-3, -2, -1].map((n) => ({ pid: 'HIST-1', week_start: week(n), act_bkg_units: 20 })),
      ])
      .execute();
    const before = await recordsByKey(db);
    server.clock.advanceWeeks(1);
    const outcome = await rollHorizon(db, server.clock, { horizonWeeks: HORIZON });
    // One new week for each of the PRODUCTS and NEW-1, two for GAP-1, the whole horizon for HIST-1.
    expect(outcome).toMatchObject({ rolled: true, week: week(5), recordsAdded: PRODUCTS + 1 + 2 + HORIZON });
    const after = await recordsByKey(db);
    for (const [key, row] of before) expect(after.get(key), key).toBe(row);

    const { rows } = await sql<{
      pid: string;
      week_start: string;
      ensemble_fcst_units: number | null;
      naive_fcst_units: number | null;
    }>`select pid, to_char(week_start, 'YYYY-MM-DD') as week_start,
        ensemble_fcst_units::float8 as ensemble_fcst_units, naive_fcst_units::float8 as naive_fcst_units
      from demand_records where pid = 'GAP-1' and week_start in (${week(20)}::date, ${week(56)}::date)
      order by week_start`.execute(db);
    expect(rows).toEqual([
      { pid: 'GAP-1', week_start: week(20), ensemble_fcst_units: 7, naive_fcst_units: 6 },
      // The season-earlier forecast; its missing naive forecast falls back to the latest one.
      { pid: 'GAP-1', week_start: week(56), ensemble_fcst_units: 11, naive_fcst_units: 6 },
    ]);
    const perProduct = await futureWeeksPerProduct(db, week(5));
    for (const pid of ['GAP-1', 'HIST-1'])
      expect(perProduct.find((p) => p.pid === pid)).toEqual({
        pid,
        weeks: HORIZON,
        first: week(5),
        last: week(56),
      });
    const { rows: history } = await sql<{ records: number; forecasts: number }>`
      select count(*)::int as records, count(ensemble_fcst_units)::int as forecasts
      from demand_records where pid = 'HIST-1'`.execute(db);
    expect(history[0]).toEqual({ records: 3 + HORIZON, forecasts: 0 });
    expect(await keptTablesDiffering(db)).toEqual([]);
  });

  it("applies an import's third and fourth quarter to an existing SKU: the rolled horizon has their weeks", async () => {
    const product = await db
      .selectFrom('products')
      .select(['pid', 'bu', 'pf'])
      .where('client_id', '=', 'internal')
      .orderBy('pid')
      .executeTakeFirstOrThrow();
    const imported = await server.request<Ok<ImportRowOutcome>>('POST', '/api/demand-planning-items', {
      sku: product.pid,
      category: product.pf,
      businessUnit: product.bu,
      overrideQ3: 1300,
      overrideQ4: 2600,
    });
    expect(imported.status).toBe(201);
    expect(imported.body.data).toMatchObject({ status: 'updated', warnings: [] });
    const quarters = importQuarterWeeks(server.clock.now());
    const { rows } = await sql<{ q3: number; q4: number }>`
      select sum(final_pln_units) filter (where week_start between ${quarters[2]![0]!}::date and ${quarters[2]![12]!}::date)::float8 as q3,
        sum(final_pln_units) filter (where week_start between ${quarters[3]![0]!}::date and ${quarters[3]![12]!}::date)::float8 as q4
      from demand_records where pid = ${product.pid}`.execute(db);
    expect(rows[0]).toEqual({ q3: 1300, q4: 2600 });
  });
});

describe.each(backends)('a server process rolls the horizon at start on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    // Seeded for the week of TEST_ANCHOR; the server's clock is real time, weeks later.
    server = await startTestServer(
      backend,
      { products: 4, weeks: 60, futureWeeks: 52 },
      { env: { PLAN_HORIZON_WEEKS: '52', HORIZON_ROLL_IN_SERVER: 'true' } },
    );
  });
  afterAll(() => server?.close());

  it('rolls a plan seeded weeks ago to the current week in the background', async () => {
    let clock: ServerClock;
    for (;;) {
      clock = (await server.request<Ok<ServerClock>>('GET', '/api/clock')).body.data;
      if (clock.horizon.lastRolledWeek === clock.currentWeek) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { rows } = await sql<{ weeks: number }>`
      select count(*)::int as weeks from demand_records
      where week_start >= ${clock.currentWeek}::date group by pid`.execute(server.database.db);
    expect(rows.map((r) => r.weeks)).toEqual([52, 52, 52, 52]);
  });
});
