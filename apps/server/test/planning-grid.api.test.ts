import {
  DRILL_DOWNS,
  hasCostOrRevenueData,
  rollUp,
  VIEW_LEVELS,
  type AggregatedRow,
  type DemandRecord,
  type FilterOptions,
  type GridPage,
  type RollupItem,
} from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords as recordsOf, type Failure, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';
import { gridPageWithNotes } from './support/grid-page';

/** The filter options expected of `list`: each value of `key` with its record count, in value order. */
function filterCounts(key: 'BU' | 'PF' | 'Region', list: DemandRecord[]) {
  const counts = new Map<string, number>();
  for (const r of list) counts.set(r[key], (counts.get(r[key]) ?? 0) + 1);
  return [...counts].map(([value, n]) => ({ value, count: n })).sort((a, b) => (a.value < b.value ? -1 : 1));
}

const GRID = '/api/demand-planning/grid';
const byGridOrder = (a: DemandRecord, b: DemandRecord): number =>
  Number(hasCostOrRevenueData(b)) - Number(hasCostOrRevenueData(a)) ||
  (a.PID < b.PID ? -1 : a.PID > b.PID ? 1 : 0) ||
  (a.Time_Series_sk < b.Time_Series_sk ? -1 : 1);

describe.each(backends)('planning grid API on %s', (backend) => {
  let server: TestServer;

  const allRecords = (options?: RequestOptions) => recordsOf(server, options);
  // As the grid shows a page: its rows, then the notes of its roll-up cells.
  const grid = (query: string, options?: RequestOptions) => gridPageWithNotes(server, query, options);
  /** Every row of a view, read page by page. */
  const everyRow = async (query: string, limit = 500) => {
    const rows: GridPage['rows'] = [];
    let total = 0;
    do {
      const page = await grid(`${query}&limit=${limit}&offset=${rows.length}`);
      total = page.total;
      rows.push(...page.rows);
      if (page.rows.length === 0) break;
    } while (rows.length < total);
    return { rows, total };
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server?.close());

  it('pages the original table: records with data first, then PID, then week, with versions', async () => {
    const records = await allRecords();
    const expected = [...records].sort(byGridOrder);
    const first = await grid('viewLevel=none&drillDown=none&limit=25');
    expect(first.total).toBe(records.length);
    expect(first.rows).toHaveLength(25);
    expect(first.rows).toEqual(expected.slice(0, 25));
    const { rows } = await everyRow('viewLevel=none&drillDown=none', 37);
    expect(rows).toEqual(expected);
    expect((rows[0] as DemandRecord).version).toBeGreaterThanOrEqual(1);
  });

  it('agrees with the pure roll-up for every view level and drill-down', async () => {
    const records = await allRecords();
    for (const viewLevel of VIEW_LEVELS) {
      for (const drillDown of DRILL_DOWNS) {
        if (viewLevel === 'none' && drillDown === 'none') continue;
        const { rows, total } = await everyRow(`viewLevel=${viewLevel}&drillDown=${drillDown}`);
        const expected = rollUp(records, viewLevel, drillDown);
        expect(total, `${viewLevel} × ${drillDown}`).toBe(expected.length);
        expect(rows, `${viewLevel} × ${drillDown}`).toEqual(expected);
      }
    }
  });

  it('pages roll-ups without gaps or repeats', async () => {
    const records = await allRecords();
    for (const [viewLevel, drillDown] of [
      ['sku', 'monthly'],
      ['sku', 'none'],
      ['business_unit', 'weekly'],
    ] as const) {
      const { rows } = await everyRow(`viewLevel=${viewLevel}&drillDown=${drillDown}`, 7);
      expect(rows).toEqual(rollUp(records, viewLevel, drillDown));
    }
    const beyond = await grid('viewLevel=category&drillDown=monthly&offset=100000&limit=10');
    expect(beyond.rows).toEqual([]);
    expect(beyond.total).toBe(rollUp(records, 'category', 'monthly').length);
  });

  it('applies the business unit, family, region and search filters', async () => {
    const records = await allRecords();
    const bu = records[0]!.BU;
    const region = records.find((r) => r.BU === bu)!.Region;
    const filtered = records.filter((r) => r.BU === bu && r.Region === region);
    const { rows, total } = await everyRow(
      `viewLevel=category&drillDown=quarterly&bu=${encodeURIComponent(bu)}&region=${encodeURIComponent(region)}`,
    );
    expect(total).toBe(rollUp(filtered, 'category', 'quarterly').length);
    expect(rows).toEqual(rollUp(filtered, 'category', 'quarterly'));
    // Weekly and monthly pages filtered by a group name sum every group in one pass, paged.
    for (const [viewLevel, drillDown] of [
      ['category', 'weekly'],
      ['business_unit', 'monthly'],
    ] as const) {
      const paged = await everyRow(
        `viewLevel=${viewLevel}&drillDown=${drillDown}&bu=${encodeURIComponent(bu)}`,
        7,
      );
      expect(paged.rows, `${viewLevel} × ${drillDown}`).toEqual(
        rollUp(
          records.filter((r) => r.BU === bu),
          viewLevel,
          drillDown,
        ),
      );
    }

    const pf = records[0]!.PF;
    const byFamily = await everyRow(`viewLevel=none&drillDown=none&pf=${encodeURIComponent(pf)}`);
    expect(byFamily.rows).toEqual(records.filter((r) => r.PF === pf).sort(byGridOrder));

    const pid = records[3]!.PID;
    const searched = await everyRow(`viewLevel=business_unit&drillDown=monthly&search=${pid.toLowerCase()}`);
    expect(searched.rows).toEqual(
      rollUp(
        records.filter((r) => r.PID === pid),
        'business_unit',
        'monthly',
      ),
    );
  });

  it('shows a circor user only circor data, whatever context is asked for', async () => {
    const page = await grid('viewLevel=sku&drillDown=none&limit=500&clientContext=admin', { as: 'circor' });
    expect(page.total).toBeGreaterThan(0);
    expect(page.rows.every((row) => (row as AggregatedRow).PID!.startsWith('CIR-'))).toBe(true);
    const adminInCircorContext = await grid('viewLevel=sku&drillDown=none&limit=500&clientContext=circor');
    expect(adminInCircorContext.total).toBe(page.total);
    const options = await server.request<Ok<FilterOptions>>(
      'GET',
      '/api/demand-planning/filter-options',
      undefined,
      {
        as: 'circor',
      },
    );
    expect(options.body.data.businessUnits.every((o) => o.value.startsWith('CIRCOR'))).toBe(true);
  });

  it('lists filter options with record counts, each narrowed by the other filters', async () => {
    const records = await allRecords();
    const { body } = await server.request<Ok<FilterOptions>>('GET', '/api/demand-planning/filter-options');
    expect(body.data.businessUnits).toEqual(filterCounts('BU', records));
    expect(body.data.productFamilies).toEqual(filterCounts('PF', records));
    expect(body.data.regions).toEqual(filterCounts('Region', records));

    const bu = records[0]!.BU;
    const narrowed = await server.request<Ok<FilterOptions>>(
      'GET',
      `/api/demand-planning/filter-options?bu=${encodeURIComponent(bu)}`,
    );
    expect(narrowed.body.data.productFamilies).toEqual(
      filterCounts(
        'PF',
        records.filter((r) => r.BU === bu),
      ),
    );
    // The business unit list itself is not narrowed by its own selection.
    expect(narrowed.body.data.businessUnits).toEqual(body.data.businessUnits);
  });

  it('narrows each filter list by the two other filters at once (one pass for the three lists)', async () => {
    const records = await allRecords();
    const { BU: bu, Region: region } = records[0]!;
    const { body } = await server.request<Ok<FilterOptions>>(
      'GET',
      `/api/demand-planning/filter-options?bu=${encodeURIComponent(bu)}&region=${encodeURIComponent(region)}`,
    );
    expect(body.data.businessUnits).toEqual(
      filterCounts(
        'BU',
        records.filter((r) => r.Region === region),
      ),
    );
    expect(body.data.regions).toEqual(
      filterCounts(
        'Region',
        records.filter((r) => r.BU === bu),
      ),
    );
    expect(body.data.productFamilies).toEqual(
      filterCounts(
        'PF',
        records.filter((r) => r.BU === bu && r.Region === region),
      ),
    );
  });

  it('keeps roll-ups exact after a batch save and a delete', async () => {
    const records = await allRecords();
    const targets = records.filter((r) => r.Act_Bkg_Units === null).slice(0, 5);
    const save = await server.request<Ok<unknown>>('POST', '/api/demand-planning/real-data/batch', {
      updates: targets.map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        version: r.version,
        Rev_Pln_Ovrd_Percent: 10 + i,
        Reason_Code: 'Market Trend',
        Comments: `Grid test ${i}`,
      })),
    });
    expect(save.body.success).toBe(true);
    const gone = records.at(-1)!;
    const removed = await server.request(
      'DELETE',
      `/api/demand-planning/real-data/${gone.PID}/${gone.Time_Series_sk}`,
    );
    expect(removed.status).toBe(200);
    const after = await allRecords();
    for (const [viewLevel, drillDown] of [
      ['business_unit', 'none'],
      ['category', 'weekly'],
      ['sku', 'monthly'],
    ] as const) {
      const { rows } = await everyRow(`viewLevel=${viewLevel}&drillDown=${drillDown}`);
      expect(rows, `${viewLevel} × ${drillDown}`).toEqual(rollUp(after, viewLevel, drillDown));
    }
    const { rows } = await everyRow('viewLevel=none&drillDown=none');
    expect(rows).toEqual([...after].sort(byGridOrder));
  });

  it('lists roll-up entries per level, category by default', async () => {
    const records = await allRecords();
    const families = new Set(records.map((r) => r.PF));
    const byDefault = await server.request<Ok<RollupItem[]>>('GET', '/api/demand-planning-rollup');
    expect(byDefault.body.data.map((item) => item.name)).toEqual([...families].sort());
    const first = byDefault.body.data[0]!;
    expect(first.id).toBe(`pf:${first.name}`);
    expect(first.recordCount).toBe(records.filter((r) => r.PF === first.name).length);
    const skus = await server.request<Ok<RollupItem[]>>('GET', '/api/demand-planning-rollup/sku?limit=3');
    expect(skus.body.data).toHaveLength(3);
    expect(skus.body.data[0]).toMatchObject({ sku: skus.body.data[0]!.name, skuCount: 1 });
  });

  it('refuses bad queries with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['viewLevel=pid', 'viewLevel'],
      ['drillDown=daily', 'drillDown'],
      ['limit=501', 'limit'],
      ['offset=-1', 'offset'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ] as const) {
      const { status, body } = await server.request<Failure>('GET', `${GRID}?${query}`);
      expect(status, query).toBe(400);
      expect(body.error).toMatch(new RegExp(`^${field} `));
    }
    const rollup = await server.request<Failure>('GET', '/api/demand-planning-rollup/region');
    expect(rollup.status).toBe(400);
    expect(rollup.body.error).toMatch(/^viewLevel /);
  });

  it('requires a signed-in caller', async () => {
    const { status } = await server.request('GET', GRID, undefined, { as: 'anonymous' });
    expect(status).toBe(401);
  });
});
