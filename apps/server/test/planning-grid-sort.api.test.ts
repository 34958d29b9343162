import { rollUp, type AggregatedRow, type DemandRecord, type GridPage } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';
import { gridPageWithNotes } from './support/grid-page';

const GRID = '/api/demand-planning/grid';
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Spec §4: the sorted value (nulls last in both directions), then the row's key. */
function bySort<T>(value: (row: T) => number | string | null, dir: 'asc' | 'desc', key: (row: T) => string) {
  return (a: T, b: T): number => {
    const x = value(a);
    const y = value(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const order = typeof x === 'string' ? text(x, y as string) : x - (y as number);
      if (order !== 0) return dir === 'asc' ? order : -order;
    }
    return text(key(a), key(b));
  };
}

describe.each(backends)('planning grid sort on %s', (backend) => {
  let server: TestServer;
  // As the grid shows a page: its rows, then the notes of its roll-up cells.
  const grid = (query: string, options?: RequestOptions) => gridPageWithNotes(server, query, options);
  const everyRow = async (query: string, limit: number, options?: RequestOptions) => {
    const rows: GridPage['rows'] = [];
    let total = 0;
    do {
      const page = await grid(`${query}&limit=${limit}&offset=${rows.length}`, options);
      total = page.total;
      rows.push(...page.rows);
      if (page.rows.length === 0) break;
    } while (rows.length < total);
    return { rows, total };
  };
  const allRecords = async (options?: RequestOptions) =>
    (
      await server.request<Ok<{ items: DemandRecord[] }>>(
        'GET',
        '/api/demand-planning/real-data?limit=5000',
        undefined,
        options,
      )
    ).body.data.items;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 30, weeks: 10 });
  });
  afterAll(async () => server?.close());

  it('sorts the original table by any column, nulls last, with stable paging', async () => {
    const records = await allRecords();
    const key = (r: DemandRecord) => `${r.PID}|${r.Time_Series_sk}`;
    for (const [field, dir] of [
      ['Final_Pln_Units', 'desc'],
      ['SOP_Pln_Ovrd_Units', 'asc'],
      ['PF', 'desc'],
      ['Date', 'asc'],
      // Walked in product or week order from per-product and per-week counts.
      ['PID', 'desc'],
      ['BU', 'asc'],
      ['Rank', 'desc'],
      ['Time_Series_sk', 'desc'],
    ] as const) {
      const value = (r: DemandRecord) => (field === 'Date' ? r.Time_Series_sk : r[field]);
      const expected = [...records].sort(bySort(value, dir, key)).map(key);
      // Pages of 7 must join into one order with no record twice or missing.
      const { rows, total } = await everyRow(
        `viewLevel=none&drillDown=none&sortBy=${field}&sortDir=${dir}`,
        7,
      );
      expect(total).toBe(records.length);
      expect((rows as DemandRecord[]).map(key), `${field} ${dir}`).toEqual(expected);
    }
  });

  it('sorts roll-ups at every level by a figure or a key, nulls last', async () => {
    const records = await allRecords();
    const cases = [
      ['category', 'quarterly', 'Final_Pln_Rev_Dlrs', 'desc'],
      ['business_unit', 'monthly', 'SOP_Pln_Ovrd_Units', 'asc'],
      ['sku', 'none', 'Act_Bkg_Units', 'desc'],
      ['sku', 'monthly', 'PID', 'desc'],
      ['category', 'weekly', 'periodLabel', 'desc'],
      // Figures sorted among the products their kept extremes say can hold the page.
      ['sku', 'monthly', 'Final_Pln_Units', 'desc'],
      ['none', 'weekly', 'Prelim_Pln_Cost', 'asc'],
      ['sku', 'quarterly', 'Rev_Pln_Ovrd_Percent', 'desc'],
      ['none', 'yearly', 'last_updated_at', 'desc'],
      // Products walked in the order of their own attribute.
      ['none', 'weekly', 'PID', 'asc'],
      ['none', 'quarterly', 'PF', 'desc'],
      ['sku', 'none', 'BU', 'asc'],
      ['sku', 'yearly', 'Rank', 'desc'],
      // A family's business unit when its products share one, else none (last).
      ['category', 'monthly', 'BU', 'desc'],
      ['category', 'none', 'Final_Pln_Units', 'asc'],
      ['business_unit', 'yearly', 'BU', 'desc'],
    ] as const;
    for (const [viewLevel, drillDown, field, dir] of cases) {
      const groupOf = (row: AggregatedRow) =>
        (viewLevel === 'business_unit' ? row.BU : viewLevel === 'category' ? row.PF : row.PID) ?? '';
      const key = (row: AggregatedRow) => `${groupOf(row)}|${row.periodKey ?? ''}`;
      const value = (row: AggregatedRow) =>
        field === 'PID'
          ? groupOf(row)
          : field === 'periodLabel'
            ? (row.periodKey ?? '')
            : (row[field] ?? null);
      const expected = rollUp(records, viewLevel, drillDown).sort(bySort(value, dir, key));
      const query = `viewLevel=${viewLevel}&drillDown=${drillDown}&sortBy=${field}&sortDir=${dir}`;
      const { rows, total } = await everyRow(query, 9);
      expect(total, query).toBe(expected.length);
      expect(rows, query).toEqual(expected);
    }
  });

  it('sorts only what the caller may see', async () => {
    const circorRecords = await allRecords({ as: 'circor' });
    const page = await grid(
      'viewLevel=none&drillDown=none&sortBy=Final_Pln_Rev_Dlrs&sortDir=desc&limit=500',
      {
        as: 'circor',
      },
    );
    expect(page.total).toBe(circorRecords.length);
    const pids = new Set(circorRecords.map((r) => r.PID));
    expect((page.rows as DemandRecord[]).every((r) => pids.has(r.PID))).toBe(true);
  });

  it('refuses a column the view does not have, naming the parameter', async () => {
    for (const query of [
      'viewLevel=category&drillDown=none&sortBy=Comments',
      'viewLevel=business_unit&drillDown=none&sortBy=PF',
      'viewLevel=none&drillDown=none&sortBy=nope',
      'viewLevel=none&drillDown=none&sortBy=PID&sortDir=up',
    ]) {
      const { status, body } = await server.request<Failure>('GET', `${GRID}?${query}`);
      expect(status, query).toBe(400);
      expect(body.error, query).toMatch(/sort(By|Dir)/);
    }
  });
});
