import { rollUp, type AggregatedRow, type DemandRecord, type ForecastRun, type GridPage } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { completedForecastRun } from './support/forecast-run';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

/** 40 demo products (32 internal, 8 circor) in 6 business units, each with 130 weeks of sales. */
const PRODUCTS = 40;
/** Small chunks: most units fill one, so a run has several chunks, each of whole units. */
const CHUNK_PRODUCTS = 8;

describe.each(backends)('a forecast run reconciled across the hierarchy on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: PRODUCTS, weeks: 12 },
      { env: { FORECAST_CHUNK_PRODUCTS: String(CHUNK_PRODUCTS) } },
    );
  });
  afterAll(async () => server?.close());

  const completedRun = (): Promise<ForecastRun> => completedForecastRun(server);

  /** The grid's family rows week by week, as a caller sees them. */
  async function familyWeeks(as: Caller): Promise<AggregatedRow[]> {
    const { body } = await server.request<Ok<GridPage>>(
      'GET',
      '/api/demand-planning/grid?viewLevel=category&drillDown=weekly&limit=500',
      undefined,
      { as },
    );
    expect(body.data.total).toBeLessThanOrEqual(500);
    return body.data.rows as AggregatedRow[];
  }

  /** Each family-week's statistical forecast by row id. */
  const statistical = (rows: readonly AggregatedRow[]): Map<string, number | null> =>
    new Map(rows.map((row) => [row.id, row.Ensemble_Fcst_Units]));

  /** The future weeks' statistical forecasts, one line per record. */
  const forecastLines = (records: readonly DemandRecord[]): string[] =>
    records
      .filter((r) => r.Act_Bkg_Units === null)
      .map((r) => `${r.PID} ${r.Time_Series_sk} ${r.Ensemble_Fcst_Units}`)
      .sort();

  it("writes product forecasts whose sums are the families' statistical forecasts, in chunks of whole units, the same twice", async () => {
    const first = await completedRun();
    expect(first).toMatchObject({ status: 'succeeded', totalProducts: PRODUCTS, progressPercent: 100 });

    // Every business unit's products are in one chunk.
    const products = await server.database.db
      .selectFrom('products')
      .select(['pid', 'client_id', 'bu'])
      .execute();
    const chunks = await server.database.db
      .selectFrom('forecast_run_chunks')
      .select(['chunk', 'pids'])
      .where('run_id', '=', first.id)
      .execute();
    expect(chunks.length).toBeGreaterThan(1);
    const chunkOf = new Map(chunks.flatMap((c) => c.pids.map((pid) => [pid, c.chunk] as const)));
    expect(chunkOf.size).toBe(PRODUCTS);
    const unitChunks = new Map<string, Set<number>>();
    for (const p of products) {
      const key = `${p.client_id}/${p.bu}`;
      unitChunks.set(key, (unitChunks.get(key) ?? new Set()).add(chunkOf.get(p.pid)!));
    }
    expect(unitChunks.size).toBe(6);
    expect([...unitChunks.values()].every((set) => set.size === 1)).toBe(true);

    // The grid's family-week forecast is the sum of the family's products' records (to the cent).
    const records = await allRecords(server);
    const expected = statistical(rollUp(records, 'category', 'weekly'));
    const grid = statistical(await familyWeeks('admin'));
    expect([...grid.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, value] of grid) expect(value, id).toBeCloseTo(expected.get(id)!, 2);
    // The stored quantiles move with the reconciled forecast: their mean is what the records hold.
    const accuracy = await server.database.db
      .selectFrom('forecast_accuracy')
      .select(['pid', 'quantiles'])
      .execute();
    const future = records.filter((r) => r.Act_Bkg_Units === null);
    for (const row of accuracy) {
      const weeks = future
        .filter((r) => r.PID === row.pid)
        .sort((a, b) => a.Time_Series_sk.localeCompare(b.Time_Series_sk));
      const written = weeks.slice(0, row.quantiles!.mean.length).map((r) => r.Ensemble_Fcst_Units!);
      expect(written.length, row.pid).toBe(row.quantiles!.mean.length);
      // Both to the cent, rounded apart: at most a cent between them.
      row.quantiles!.mean.forEach((v, j) => expect(Math.abs(v - written[j]!), row.pid).toBeLessThan(0.0101));
    }

    // A circor user sees circor's families only, summed from circor's own records.
    const circorRecords = await allRecords(server, { as: 'circor' });
    expect(circorRecords.length).toBeGreaterThan(0);
    expect(circorRecords.every((r) => r.PID.startsWith('CIR-'))).toBe(true);
    const circorGrid = statistical(await familyWeeks('circor'));
    const circorExpected = statistical(rollUp(circorRecords, 'category', 'weekly'));
    expect([...circorGrid.keys()].sort()).toEqual([...circorExpected.keys()].sort());
    for (const [id, value] of circorGrid) expect(value, id).toBeCloseTo(circorExpected.get(id)!, 2);
    expect([...circorGrid.keys()].some((id) => grid.has(id))).toBe(true);
    expect(circorGrid.size).toBeLessThan(grid.size);

    const second = await completedRun();
    expect(second.status).toBe('succeeded');
    expect(forecastLines(await allRecords(server))).toEqual(forecastLines(records));
    expect(statistical(await familyWeeks('admin'))).toEqual(grid);
    // Two whole runs, each training the member: more than the default minute on a busy machine.
  }, 240_000);
});
