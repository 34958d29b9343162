import {
  periodKeyOf,
  type AggregatedRow,
  type DemandRecord,
  type RecordHistoryEntry,
  type SpreadCellResult,
  type SpreadResult,
} from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Failure, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';
import { gridPageWithNotes } from './support/grid-page';

const SPREAD = '/api/demand-planning/spread';
const LOCKS = '/api/demand-planning/locks';

describe.each(backends)('aggregate edits, locks and cell history on %s', (backend) => {
  let server: TestServer;
  const records = (options?: RequestOptions) => allRecords(server, options);
  // As the grid shows a page: its rows, then the notes of its roll-up cells.
  const grid = (query: string, options?: RequestOptions) => gridPageWithNotes(server, query, options);
  const under = (all: DemandRecord[], pf: string, quarter: string) =>
    all.filter((r) => r.PF === pf && periodKeyOf('quarterly', r.Time_Series.slice(0, 10)) === quarter);
  const history = async (record: DemandRecord, options?: RequestOptions) =>
    server.request<Ok<RecordHistoryEntry[]> | Failure>(
      'GET',
      `/api/demand-planning/real-data/${record.PID}/${record.Time_Series_sk}/history`,
      undefined,
      options,
    );

  /** The family × quarter with the most records, as the grid shows it (admin sees both clients). */
  let cell: AggregatedRow;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 24, weeks: 16 });
    const page = await grid('viewLevel=category&drillDown=quarterly&limit=500');
    cell = [...(page.rows as AggregatedRow[])].sort((a, b) => b.recordCount - a.recordCount)[0]!;
  });
  afterAll(async () => server?.close());

  const body = (extra: Record<string, unknown>) => ({
    viewLevel: 'category',
    drillDown: 'quarterly',
    group: cell.PF,
    periodKey: cell.periodKey,
    field: 'SOP_Pln_Ovrd_Units',
    ...extra,
  });

  it('previews without saving: records, locked records, units and money the edit moves', async () => {
    const before = under(await records(), cell.PF!, cell.periodKey!);
    const { status, body: answer } = await server.request<Ok<SpreadResult>>(
      'POST',
      SPREAD,
      body({ value: 1000, preview: true }),
    );
    expect(status).toBe(200);
    const finalUnits = before.reduce((s, r) => s + (r.Final_Pln_Units ?? 0), 0);
    expect(answer.data).toMatchObject({
      saved: false,
      records: before.length,
      lockedRecords: 0,
      unitsBefore: finalUnits,
      unitsAfter: 1000,
    });
    // Nothing was written.
    expect(under(await records(), cell.PF!, cell.periodKey!)).toEqual(before);
  });

  it('spreads a family × quarter total over its records, leaving a locked record alone, audited', async () => {
    const before = under(await records(), cell.PF!, cell.periodKey!);
    // The record with the largest final plan, so that a total below it must be refused later.
    const locked = [...before].sort((a, b) => (b.Final_Pln_Units ?? 0) - (a.Final_Pln_Units ?? 0))[0]!;
    expect(locked.Final_Pln_Units).toBeGreaterThan(0);
    const lock = await server.request<Ok<{ records: number }>>('PUT', LOCKS, {
      records: [{ PID: locked.PID, Time_Series_sk: locked.Time_Series_sk }],
      locked: true,
    });
    expect(lock.status).toBe(200);
    const page = await grid(`viewLevel=none&drillDown=none&search=${locked.PID}&limit=500`);
    expect(page.stamps?.[`${locked.PID}|${locked.Time_Series_sk}`]?.locked).toBe(true);

    const typed = (locked.Final_Pln_Units ?? 0) + 777;
    const { status, body: answer } = await server.request<Ok<SpreadResult>>(
      'POST',
      SPREAD,
      body({ value: typed }),
    );
    expect(status).toBe(200);
    expect(answer.data).toMatchObject({
      saved: true,
      records: before.length,
      lockedRecords: 1,
      unitsAfter: typed,
    });

    const after = under(await records(), cell.PF!, cell.periodKey!);
    // Spread then roll up: the records' final plan adds up to exactly what was typed.
    expect(after.reduce((s, r) => s + (r.Final_Pln_Units ?? 0), 0)).toBe(typed);
    const lockedAfter = after.find(
      (r) => r.PID === locked.PID && r.Time_Series_sk === locked.Time_Series_sk,
    )!;
    expect(lockedAfter).toEqual(locked);
    // The money the confirmation announced is what moved.
    const revenue = (rows: DemandRecord[]) => rows.reduce((s, r) => s + (r.Final_Pln_Rev_Dlrs ?? 0), 0);
    expect(answer.data.revenueDelta).toBeCloseTo(revenue(after) - revenue(before), 2);
    // The roll-up row reads the typed total too.
    const rolled = (await grid('viewLevel=category&drillDown=quarterly&limit=500')).rows as AggregatedRow[];
    expect(rolled.find((r) => r.id === cell.id)?.Final_Pln_Units).toBe(typed);

    const changed = after.find(
      (r) =>
        r !== lockedAfter &&
        r.version !== before.find((b) => b.PID === r.PID && b.Time_Series_sk === r.Time_Series_sk)!.version,
    )!;
    const trail = (await history(changed)).body as Ok<RecordHistoryEntry[]>;
    expect(trail.data[0]).toMatchObject({
      field: 'SOP_Pln_Ovrd_Units',
      origin: 'aggregate',
      source: 'spread',
      changedBy: changed.last_updated_by,
      newValue: String(changed.SOP_Pln_Ovrd_Units),
    });
    expect(trail.data[0]!.cause).toBe(
      `Product Family ${cell.PF} · ${cell.periodKey}: SOP_Pln_Ovrd_Units = ${typed}`,
    );
    const stamp = (await grid(`viewLevel=none&drillDown=none&search=${changed.PID}&limit=500`)).stamps?.[
      `${changed.PID}|${changed.Time_Series_sk}`
    ];
    expect(stamp?.lastOverriddenBy).toBe(changed.last_updated_by);
  });

  it("answers a saved spread with the cell's row exactly as the view's page then shows it", async () => {
    // Totals (family by quarter, business unit by week), records (a search, products by month).
    const views = [
      { viewLevel: 'category', drillDown: 'quarterly' },
      { viewLevel: 'business_unit', drillDown: 'weekly' },
      { viewLevel: 'category', drillDown: 'none', search: cell.PF! },
      { viewLevel: 'sku', drillDown: 'monthly' },
    ] as const;
    for (const view of views) {
      const query = new URLSearchParams({ ...view, limit: '500' }).toString();
      const rows = (await grid(query)).rows as AggregatedRow[];
      const target = [...rows].sort((a, b) => b.recordCount - a.recordCount)[0]!;
      const group = { sku: target.PID, category: target.PF, business_unit: target.BU }[view.viewLevel]!;
      const value = (target.Final_Pln_Units ?? 0) + 100;
      const { status, body: answer } = await server.request<Ok<SpreadCellResult>>('POST', SPREAD, {
        ...view,
        group,
        ...(target.periodKey ? { periodKey: target.periodKey } : {}),
        field: 'SOP_Pln_Ovrd_Units',
        value,
        reasonCode: 'Seasonal Adjustment',
      });
      expect(status, JSON.stringify(view)).toBe(200);
      const shown = ((await grid(query)).rows as AggregatedRow[]).find((r) => r.id === target.id);
      expect(shown?.Final_Pln_Units).toBe(value);
      expect(shown?.Reason_Codes).toContain('Seasonal Adjustment');
      expect(answer.data.row, JSON.stringify(view)).toEqual(shown);
    }
    // A preview saves nothing, so it has no row to answer.
    const preview = await server.request<Ok<SpreadCellResult>>(
      'POST',
      SPREAD,
      body({ value: 5000, preview: true }),
    );
    expect(preview.body.data.row).toBeUndefined();
  });

  it('spreads a percent to every unlocked record, replacing the stage units so it applies', async () => {
    const { status } = await server.request(
      'POST',
      SPREAD,
      body({ field: 'SOP_Pln_Ovrd_Percent', value: 12.5 }),
    );
    expect(status).toBe(200);
    const after = under(await records(), cell.PF!, cell.periodKey!);
    const unlocked = after.filter((r) => r.SOP_Pln_Ovrd_Percent === 12.5);
    expect(unlocked.length).toBe(after.length - 1);
    expect(unlocked.every((r) => r.SOP_Pln_Ovrd_Units === null)).toBe(true);
  });

  it('refuses what it cannot do, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [body({ value: 0 }), /^value must be at least \d+: locked records/],
      [body({ value: -5 }), /^value must be 0 or more/],
      [body({ value: 1.5 }), /^value must be a whole number/],
      [body({ field: 'SOP_Pln_Ovrd_Percent', value: 150 }), /^value must be at most 100/],
      [body({ field: 'Comments', value: 1 }), /^field must be one of/],
      [body({ value: 5, periodKey: undefined }), /^periodKey is required with a drill-down/],
      [body({ value: 5, viewLevel: 'none' }), /^viewLevel must be one of/],
    ];
    for (const [request, message] of cases) {
      const { status, body: answer } = await server.request<Failure>('POST', SPREAD, request);
      expect(status, JSON.stringify(request)).toBe(400);
      expect(answer.error).toMatch(message);
    }
    const unknown = await server.request<Failure>(
      'POST',
      SPREAD,
      body({ value: 5, group: 'No such family' }),
    );
    expect(unknown.status).toBe(404);
  });

  it("keeps each client's records to itself: circor neither spreads, locks nor reads another's", async () => {
    const all = await records();
    const circorPids = new Set((await records({ as: 'circor' })).map((r) => r.PID));
    const internal = all.find((r) => !circorPids.has(r.PID))!;
    const spread = await server.request<Failure>(
      'POST',
      SPREAD,
      { viewLevel: 'sku', drillDown: 'none', group: internal.PID, field: 'SOP_Pln_Ovrd_Units', value: 5 },
      { as: 'circor' },
    );
    expect(spread.status).toBe(404);
    const lock = await server.request<Failure>(
      'PUT',
      LOCKS,
      { records: [{ PID: internal.PID, Time_Series_sk: internal.Time_Series_sk }], locked: true },
      { as: 'circor' },
    );
    expect(lock.status).toBe(404);
    expect((await history(internal, { as: 'circor' })).status).toBe(404);
    expect((await server.request('POST', SPREAD, body({ value: 5 }), { as: 'nogroup' })).status).toBe(403);
  });

  it("keeps the planner's last override apart from a forecast run's rewrite", async () => {
    const planner = under(await records(), cell.PF!, cell.periodKey!).find(
      (r) => r.SOP_Pln_Ovrd_Percent === 12.5,
    )!.last_updated_by;
    const run = await server.request<Ok<{ id: number }>>('POST', '/api/forecast/runs');
    expect(run.status).toBe(202);
    let status = 'running';
    for (let i = 0; i < 600 && status === 'running'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const state = await server.request<Ok<{ status: string }>>(
        'GET',
        `/api/forecast/runs/${run.body.data.id}`,
      );
      status = state.body.data.status;
    }
    expect(status).toBe('succeeded');
    // The run rewrote the future weeks' forecasts and plans; the planner's override stays theirs.
    const rewritten = under(await records(), cell.PF!, cell.periodKey!).filter(
      (r) => r.SOP_Pln_Ovrd_Percent === 12.5 && r.last_updated_by === 'Forecast engine',
    );
    expect(rewritten.length).toBeGreaterThan(0);
    for (const record of rewritten.slice(0, 3)) {
      const page = await grid(`viewLevel=none&drillDown=none&search=${record.PID}&limit=500`);
      expect(page.stamps?.[`${record.PID}|${record.Time_Series_sk}`]?.lastOverriddenBy).toBe(planner);
    }
  });

  it("undoes the caller's last save once, as a new audited change", async () => {
    const record = (await records())[3]!;
    const saved = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: [
        {
          PID: record.PID,
          Time_Series_sk: record.Time_Series_sk,
          version: record.version,
          Comments: 'Undo me',
        },
      ],
    });
    expect(saved.status).toBe(200);
    // What the confirmation says Undo Last Save will revert.
    const size = await server.request<Ok<{ records: number }>>('GET', '/api/demand-planning/undo');
    expect(size.body.data).toEqual({ records: 1 });
    const undone = await server.request<Ok<{ updatedRecords: number }>>('POST', '/api/demand-planning/undo');
    expect(undone.status).toBe(200);
    expect(undone.body.data.updatedRecords).toBe(1);
    const after = (await records()).find(
      (r) => r.PID === record.PID && r.Time_Series_sk === record.Time_Series_sk,
    )!;
    expect(after.Comments).toBe(record.Comments);
    const trail = (await history(record)).body as Ok<RecordHistoryEntry[]>;
    expect(trail.data[0]).toMatchObject({ field: 'Comments', origin: 'undo', oldValue: 'Undo me' });
    expect(trail.data[0]!.cause).toMatch(/^Undo of the save at /);
    expect((await server.request('POST', '/api/demand-planning/undo')).status).toBe(404);
    expect(
      (await server.request<Ok<{ records: number }>>('GET', '/api/demand-planning/undo')).body.data,
    ).toEqual({ records: 0 });
    expect(
      (await server.request('POST', '/api/demand-planning/undo', undefined, { as: 'nogroup' })).status,
    ).toBe(403);
  });
});
