import {
  periodKeyOf,
  toIsoDate,
  weekStartSunday,
  type DemandRecord,
  type SpreadResult,
  type TimePhasedPage,
} from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Failure, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';

const TIME_PHASED = '/api/demand-planning/time-phased';
const BATCH = '/api/demand-planning/spread-batch';

describe.each(backends)('the time-phased planning view and batch spreads on %s', (backend) => {
  let server: TestServer;
  const records = (options?: RequestOptions) => allRecords(server, options);
  const page = async (query: string, options?: RequestOptions) =>
    server.request<Ok<TimePhasedPage> | Failure>('GET', `${TIME_PHASED}?${query}`, undefined, options);
  const monthOf = (r: DemandRecord) => periodKeyOf('monthly', r.Time_Series.slice(0, 10));
  const sum = (rows: DemandRecord[], pick: (r: DemandRecord) => number | null) => {
    const values = rows.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 16 });
  });
  afterAll(async () => server?.close());

  it('pages products by name, each with its measures per month, past months apart', async () => {
    const all = await records();
    const pids = [...new Set(all.map((r) => r.PID))].sort();
    const { status, body } = await page('viewLevel=sku&bucket=monthly&offset=2&limit=3');
    expect(status).toBe(200);
    const data = (body as Ok<TimePhasedPage>).data;
    expect(data.totalItems).toBe(pids.length);
    expect(data.items.map((i) => i.group)).toEqual(pids.slice(2, 5));
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    expect(data.currentWeek).toBe(currentWeek);
    for (const item of data.items) {
      const own = all.filter((r) => r.PID === item.group);
      expect(item.recordCount).toBe(own.length);
      data.periods.forEach((period, i) => {
        const inMonth = own.filter((r) => monthOf(r) === period.key);
        expect(item.values.actuals[i]).toBe(sum(inMonth, (r) => r.Act_Bkg_Units));
        expect(item.values.final[i]).toBe(sum(inMonth, (r) => r.Final_Pln_Units));
        expect(item.values.p1[i]).toBe(sum(inMonth, (r) => r.P1_Pub_Pln_Units));
        expect(item.values.sopOverrideUnits[i]).toBe(sum(inMonth, (r) => r.SOP_Pln_Ovrd_Units));
        const final = item.values.final[i]!;
        const p1 = item.values.p1[i]!;
        expect(item.values.finalMinusP1[i]).toBe(Math.round((final - p1) * 100) / 100);
      });
    }
    // A month is past when all of its weeks started before the current week.
    const months = data.periods.map((p) => [p.key, p.isPast]);
    const currentMonth = periodKeyOf('monthly', currentWeek);
    expect(months).toContainEqual([currentMonth, false]);
    expect(months.filter(([key]) => (key as string) < currentMonth).every(([, past]) => past)).toBe(true);
    expect(data.periods.map((p) => p.key)).toEqual([...data.periods.map((p) => p.key)].sort());
  });

  it('rolls families up by quarter from the totals, narrowed by the filters and the scope', async () => {
    const all = await records({ as: 'circor' });
    const families = [...new Set(all.map((r) => r.PF))].sort();
    const { body } = await page('viewLevel=category&bucket=quarterly&limit=50', { as: 'circor' });
    const data = (body as Ok<TimePhasedPage>).data;
    expect(data.items.map((i) => i.group)).toEqual(families);
    const first = data.items[0]!;
    data.periods.forEach((period, i) => {
      const rows = all.filter(
        (r) => r.PF === first.group && periodKeyOf('quarterly', r.Time_Series.slice(0, 10)) === period.key,
      );
      expect(first.values.statistical[i]).toBe(sum(rows, (r) => r.Ensemble_Fcst_Units));
      expect(first.values.prelim[i]).toBe(sum(rows, (r) => r.Prelim_Pln_Units));
    });
    const region = all[0]!.Region;
    const narrowed = (await page(`viewLevel=business_unit&bucket=weekly&region=${region}`))
      .body as Ok<TimePhasedPage>;
    expect(narrowed.data.items.reduce((s, i) => s + i.recordCount, 0)).toBe(
      (await records()).filter((r) => r.Region === region).length,
    );
  });

  it('answers an empty page past the end with the total, and 400 naming a bad parameter', async () => {
    const past = (await page('viewLevel=sku&bucket=weekly&offset=500')).body as Ok<TimePhasedPage>;
    expect(past.data.items).toEqual([]);
    expect(past.data.totalItems).toBe(12);
    for (const [query, field] of [
      ['bucket=yearly', 'bucket'],
      ['viewLevel=none', 'viewLevel'],
      ['limit=51', 'limit'],
      ['offset=-1', 'offset'],
    ] as const) {
      const { status, body } = await page(query);
      expect(status, query).toBe(400);
      expect((body as Failure).error, query).toContain(field);
    }
  });

  it('saves a pasted range as one batch: previewed first, every cell spread, undone together', async () => {
    const all = await records();
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    const futureMonths = [...new Set(all.filter((r) => r.Date > currentWeek).map(monthOf))]
      .sort()
      .slice(0, 2);
    const pids = [...new Set(all.map((r) => r.PID))].sort().slice(0, 2);
    const cells = pids.flatMap((group, row) =>
      futureMonths.map((periodKey, column) => ({
        group,
        periodKey,
        field: 'SOP_Pln_Ovrd_Units',
        value: 100 * (row + 1) + column,
      })),
    );
    const request = { viewLevel: 'sku', drillDown: 'monthly', cells };
    const under = (rows: DemandRecord[], group: string, month: string) =>
      rows.filter((r) => r.PID === group && monthOf(r) === month);

    const preview = await server.request<Ok<SpreadResult>>('POST', BATCH, { ...request, preview: true });
    expect(preview.status).toBe(200);
    const recordsUnder = cells.reduce((s, c) => s + under(all, c.group, c.periodKey).length, 0);
    expect(preview.body.data).toMatchObject({
      saved: false,
      records: recordsUnder,
      unitsAfter: 100 + 101 + 200 + 201,
    });
    expect(await records()).toEqual(all);

    const saved = await server.request<Ok<SpreadResult>>('POST', BATCH, request);
    expect(saved.body.data.saved).toBe(true);
    const after = await records();
    for (const cell of cells)
      expect(
        sum(under(after, cell.group, cell.periodKey), (r) => r.Final_Pln_Units),
        cell.periodKey,
      ).toBe(cell.value);

    // One transaction: one save, which undo reverts as a whole.
    const undo = await server.request<Ok<{ updatedRecords: number }>>('POST', '/api/demand-planning/undo');
    expect(undo.body.data.updatedRecords).toBe(saved.body.data.changedRecords);
    expect((await records()).map((r) => r.SOP_Pln_Ovrd_Units)).toEqual(all.map((r) => r.SOP_Pln_Ovrd_Units));
  });

  it('undoes a batch that wrote one field twice back to the value before the batch', async () => {
    const all = await records();
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    const pid = all[all.length - 1]!.PID;
    const month = monthOf(all.filter((r) => r.PID === pid && r.Date > currentWeek).at(-1)!);
    const under = (rows: DemandRecord[]) => rows.filter((r) => r.PID === pid && monthOf(r) === month);
    // The percent clears the stage's units; the units pasted after it set them again.
    const saved = await server.request<Ok<SpreadResult>>('POST', BATCH, {
      viewLevel: 'sku',
      drillDown: 'monthly',
      cells: [
        { group: pid, periodKey: month, field: 'SOP_Pln_Ovrd_Percent', value: 5 },
        { group: pid, periodKey: month, field: 'SOP_Pln_Ovrd_Units', value: 300 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(sum(under(await records()), (r) => r.Final_Pln_Units)).toBe(300);
    const undo = await server.request<Ok<{ updatedRecords: number }>>('POST', '/api/demand-planning/undo');
    expect(undo.status).toBe(200);
    const fields = (rows: DemandRecord[]) =>
      under(rows).map((r) => [r.SOP_Pln_Ovrd_Percent, r.SOP_Pln_Ovrd_Units, r.Final_Pln_Units]);
    expect(fields(await records())).toEqual(fields(all));
  });

  it('saves all cells or none, and refuses a bad cell naming it', async () => {
    const all = await records();
    const pid = all[0]!.PID;
    const month = monthOf(all[all.length - 1]!);
    const good = { group: pid, periodKey: month, field: 'Rev_Pln_Ovrd_Units', value: 5 };
    const missing = await server.request<Failure>('POST', BATCH, {
      viewLevel: 'sku',
      drillDown: 'monthly',
      cells: [good, { ...good, group: 'NO-SUCH-PID' }],
    });
    expect(missing.status).toBe(404);
    expect(await records()).toEqual(all);

    const invalid = await server.request<Failure>('POST', BATCH, {
      viewLevel: 'sku',
      drillDown: 'monthly',
      cells: [good, { ...good, value: -5 }],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toContain('cells.1.value');
    const noPeriod = await server.request<Failure>('POST', BATCH, {
      viewLevel: 'sku',
      drillDown: 'monthly',
      cells: [{ group: pid, field: 'Rev_Pln_Ovrd_Units', value: 5 }],
    });
    expect(noPeriod.status).toBe(400);
    expect(noPeriod.body.error).toContain('cells.0.periodKey');
    const viewer = await server.request<Failure>(
      'POST',
      BATCH,
      { viewLevel: 'sku', drillDown: 'monthly', cells: [good] },
      {
        as: 'nogroup',
      },
    );
    expect(viewer.status).toBe(403);
  });
});
