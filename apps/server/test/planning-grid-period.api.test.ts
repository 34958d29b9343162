import {
  DRILL_DOWNS,
  hasCostOrRevenueData,
  rollUp,
  VIEW_LEVELS,
  type AggregatedRow,
  type DemandRecord,
  type GridPage,
  type RollupItem,
  type SpreadResult,
} from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords as recordsOf, type Failure, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';
import { gridPageWithNotes } from './support/grid-page';

const GRID = '/api/demand-planning/grid';
/** The seed's weeks run from 2026-10-04 to 2026-12-20 (6 before the anchor, 2026-11-15, and 6 from it). */
const TODAY = new Date('2026-11-04T00:00:00Z');
const CURRENT_WEEK = '2026-11-01';
const LAST_PAST_WEEK = '2026-10-25';
const sk = (iso: string) => iso.replaceAll('-', '');
const byGridOrder = (a: DemandRecord, b: DemandRecord): number =>
  Number(hasCostOrRevenueData(b)) - Number(hasCostOrRevenueData(a)) ||
  (a.PID < b.PID ? -1 : a.PID > b.PID ? 1 : 0) ||
  (a.Time_Series_sk < b.Time_Series_sk ? -1 : 1);

describe.each(backends)('planning grid over a period on %s', (backend) => {
  let server: TestServer;
  // As the grid shows a page: its rows, then the notes of its roll-up cells.
  const grid = (query: string, options?: RequestOptions) => gridPageWithNotes(server, query, options);
  const everyRow = async (query: string, options?: RequestOptions) => {
    const rows: GridPage['rows'] = [];
    let total = 0;
    do {
      const page = await grid(`${query}&limit=97&offset=${rows.length}`, options);
      total = page.total;
      rows.push(...page.rows);
      if (page.rows.length === 0) break;
    } while (rows.length < total);
    return { rows, total };
  };
  /** The records of the weeks from `from` to `to` (inclusive, either open). */
  const inWeeks = (records: DemandRecord[], from: string | null, to: string | null) =>
    records.filter(
      (r) => (from === null || r.Time_Series_sk >= sk(from)) && (to === null || r.Time_Series_sk <= sk(to)),
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    server.clock.setToday(TODAY);
  });
  afterAll(async () => server?.close());

  const periods = [
    { query: 'period=horizon', from: CURRENT_WEEK, to: null },
    { query: 'period=history', from: null, to: LAST_PAST_WEEK },
    { query: 'fromWeek=2026-10-18&toWeek=2026-11-22', from: '2026-10-18', to: '2026-11-22' },
    { query: 'toWeek=2026-10-11', from: null, to: '2026-10-11' },
  ];

  it.each(periods)('sums only the weeks of $query at every view level and drill-down', async (period) => {
    const records = inWeeks(await recordsOf(server), period.from, period.to);
    expect(records.length).toBeGreaterThan(0);
    const table = await everyRow(`viewLevel=none&drillDown=none&${period.query}`);
    expect(table.total).toBe(records.length);
    expect(table.rows).toEqual([...records].sort(byGridOrder));
    for (const viewLevel of VIEW_LEVELS) {
      for (const drillDown of DRILL_DOWNS) {
        if (viewLevel === 'none' && drillDown === 'none') continue;
        const { rows, total } = await everyRow(
          `viewLevel=${viewLevel}&drillDown=${drillDown}&${period.query}`,
        );
        const expected = rollUp(records, viewLevel, drillDown);
        expect(total, `${viewLevel} × ${drillDown}`).toBe(expected.length);
        expect(rows, `${viewLevel} × ${drillDown}`).toEqual(expected);
      }
    }
  });

  it('sorts and searches within the period', async () => {
    const records = inWeeks(await recordsOf(server), CURRENT_WEEK, null);
    const sorted = await everyRow(
      'viewLevel=none&drillDown=none&period=horizon&sortBy=Final_Pln_Units&sortDir=desc',
    );
    expect(sorted.total).toBe(records.length);
    const units = sorted.rows.map((row) => (row as DemandRecord).Final_Pln_Units ?? -Infinity);
    expect(units).toEqual([...units].sort((a, b) => b - a));
    expect(sorted.rows.every((row) => (row as DemandRecord).Time_Series_sk >= sk(CURRENT_WEEK))).toBe(true);

    const byFamily = await everyRow(
      'viewLevel=category&drillDown=monthly&period=horizon&sortBy=PF&sortDir=desc',
    );
    expect(byFamily.rows.map((row) => (row as AggregatedRow).id).sort()).toEqual(
      rollUp(records, 'category', 'monthly')
        .map((row) => row.id)
        .sort(),
    );

    const pid = records[0]!.PID;
    const searched = await everyRow(`viewLevel=sku&drillDown=weekly&period=horizon&search=${pid}`);
    expect(searched.rows).toEqual(
      rollUp(
        records.filter((r) => r.PID.includes(pid)),
        'sku',
        'weekly',
      ),
    );
  });

  it('answers a clear 400 for a bad week, a week not a Sunday, an end before the start or two periods', async () => {
    const cases: Array<[string, string]> = [
      ['fromWeek=2026-02-30', 'fromWeek'],
      ['fromWeek=20261011', 'fromWeek'],
      ['toWeek=2026-10-14', 'toWeek'],
      ['fromWeek=2026-10-18&toWeek=2026-10-11', 'toWeek'],
      ['period=future', 'period'],
      ['period=horizon&fromWeek=2026-10-11', 'period'],
      ['fromWeek=2026-10-11&fromWeek=2026-10-18', 'fromWeek'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await server.request<Failure>('GET', `${GRID}?viewLevel=category&${query}`);
      expect(status, query).toBe(400);
      expect(JSON.stringify(body), query).toContain(field);
    }
    const csv = await server.request<Failure>(
      'GET',
      '/api/demand-planning/export.csv?viewLevel=none&toWeek=x',
    );
    expect(csv.status).toBe(400);
  });

  it("shows a circor user only its client's records of the period", async () => {
    const records = inWeeks(
      (await recordsOf(server)).filter((r) => r.PID.startsWith('CIR-')),
      CURRENT_WEEK,
      null,
    );
    expect(records.length).toBeGreaterThan(0);
    const table = await everyRow('viewLevel=none&drillDown=none&period=horizon&clientContext=admin', {
      as: 'circor',
    });
    expect(table.rows).toEqual([...records].sort(byGridOrder));
    const families = await everyRow('viewLevel=category&drillDown=none&period=horizon', { as: 'circor' });
    expect(families.rows).toEqual(rollUp(records, 'category', 'none'));
  });

  it('counts roll-up list records of the period only', async () => {
    const records = inWeeks(await recordsOf(server), null, LAST_PAST_WEEK);
    const { body } = await server.request<Ok<RollupItem[]>>(
      'GET',
      '/api/demand-planning-rollup/business_unit?period=history',
    );
    const expected = new Map<string, number>();
    for (const r of records) expected.set(r.BU, (expected.get(r.BU) ?? 0) + 1);
    expect(new Map(body.data.map((item) => [item.name, item.recordCount]))).toEqual(expected);
    const bad = await server.request<Failure>('GET', '/api/demand-planning-rollup?fromWeek=2026-10-12');
    expect(bad.status).toBe(400);
  });

  it("spreads a roll-up edit over the period's weeks only", async () => {
    const records = await recordsOf(server);
    const family = records[0]!.PF;
    const inHorizon = inWeeks(records, CURRENT_WEEK, null).filter((r) => r.PF === family);
    const { status, body } = await server.request<Ok<SpreadResult>>('POST', '/api/demand-planning/spread', {
      viewLevel: 'category',
      drillDown: 'none',
      group: family,
      field: 'SOP_Pln_Ovrd_Units',
      value: 1000,
      period: 'horizon',
      preview: true,
    });
    expect(status).toBe(200);
    expect(body.data.records).toBe(inHorizon.length);
    expect(body.data.unitsBefore).toBe(inHorizon.reduce((s, r) => s + (r.Final_Pln_Units ?? 0), 0));
    const bad = await server.request<Failure>('POST', '/api/demand-planning/spread', {
      viewLevel: 'category',
      drillDown: 'none',
      group: family,
      field: 'SOP_Pln_Ovrd_Units',
      value: 1000,
      fromWeek: '2026-10-12',
      preview: true,
    });
    expect(bad.status).toBe(400);
  });

  it("exports the original table's records of the period as CSV", async () => {
    const records = inWeeks(await recordsOf(server), null, LAST_PAST_WEEK);
    const { id_token } = await server.tokensFor('admin');
    const response = await fetch(
      `${server.baseUrl}/api/demand-planning/export.csv?viewLevel=none&drillDown=none&period=history`,
      { headers: { authorization: `Bearer ${id_token}` } },
    );
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split('\n');
    expect(lines.length - 1).toBe(records.length);
  });
});
