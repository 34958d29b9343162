import { derivePlan } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadFutureRecords,
  writeForecasts,
  type ForecastWrite,
} from '../src/modules/forecast-runs/forecast-run.repository';
import { planColumns } from '../src/db/demand-record-row';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

describe.each(backends)('forecast writes never overwrite a planner’s newer edit, on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 2, weeks: 8 });
  });
  afterAll(async () => server?.close());

  const recordRow = (pid: string, weekStart: string) =>
    server.database.db
      .selectFrom('demand_records as r')
      .innerJoin('products as p', 'p.pid', 'r.pid')
      .selectAll('r')
      .select(['p.unit_cost', 'p.unit_price'])
      .where('r.pid', '=', pid)
      .where('r.week_start', '=', weekStart)
      .executeTakeFirstOrThrow();

  it('writes a record still at the version it read, and skips one changed since', async () => {
    const [pid] = (await server.database.db.selectFrom('products').select('pid').execute()).map((p) => p.pid);
    const [fresh, stale] = await loadFutureRecords(server.database.db, [pid!]);
    const writeOf = (record: typeof fresh, ensemble: number): ForecastWrite => {
      const product = { unit_cost: 10, unit_price: 20 };
      return {
        pid: record!.pid,
        week_start: record!.week_start,
        version: record!.version,
        naive_fcst_units: ensemble,
        ensemble_fcst_units: ensemble,
        ...planColumns({ ...record!, ensemble_fcst_units: ensemble }, product),
      };
    };
    // A planner saves the second record after the run read it.
    await server.database.db
      .updateTable('demand_records')
      .set({ rev_pln_ovrd_units: 777, version: stale!.version + 1 })
      .where('pid', '=', stale!.pid)
      .where('week_start', '=', stale!.week_start)
      .execute();
    const before = await recordRow(stale!.pid, stale!.week_start);
    const freshBefore = await recordRow(fresh!.pid, fresh!.week_start);

    const written = await writeForecasts(server.database.db, [writeOf(fresh, 123), writeOf(stale, 456)], {
      user: 'Forecast engine',
      cause: 'Forecast run 9',
    });

    expect([...written]).toEqual([`${fresh!.pid}|${fresh!.week_start}`]);
    const afterFresh = await recordRow(fresh!.pid, fresh!.week_start);
    expect(afterFresh.ensemble_fcst_units).toBe(123);
    expect(afterFresh.version).toBe(fresh!.version + 1);
    expect(await recordRow(stale!.pid, stale!.week_start)).toEqual(before);
    // The same statement audited what it rewrote of the written record, and nothing of the other.
    const audit = await server.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('source', '=', 'forecast')
      .where('pid', '=', pid!)
      .execute();
    const ensemble = audit.find((a) => a.field === 'Ensemble_Fcst_Units');
    expect(ensemble).toMatchObject({
      week_start: fresh!.week_start,
      old_value: String(freshBefore.ensemble_fcst_units),
      new_value: '123',
      changed_by: 'Forecast engine',
      cause: 'Forecast run 9',
    });
    expect(audit.every((a) => a.week_start === fresh!.week_start)).toBe(true);
    // Units only (cost and revenue follow from them), and only fields whose value changed.
    for (const a of audit) {
      expect([
        'Naïve_Rev_Mfg_Fcst_Bk_Units',
        'Ensemble_Fcst_Units',
        'Prelim_Pln_Units',
        'Final_Pln_Units',
      ]).toContain(a.field);
      expect(a.new_value).not.toBe(a.old_value);
    }
  });

  it('leaves every record’s plan consistent with its overrides when planners edit during a run', async () => {
    const futureRecords = await server.database.db
      .selectFrom('demand_records')
      .select(['pid', 'week_start'])
      .where('week_start', '>=', new Date().toISOString().slice(0, 10))
      .execute();
    const { body: started } = await server.request<{ data: { id: number } }>('POST', '/api/forecast/runs');
    let status = 'running';
    for (let round = 0; status === 'running' && round < 2000; round++) {
      const record = futureRecords[round % futureRecords.length]!;
      // Saved through the API, as a planner does: the plan chain follows the new override.
      await server.request(
        'PUT',
        `/api/demand-planning/real-data/${record.pid}/${record.week_start.replaceAll('-', '')}`,
        { Rev_Pln_Ovrd_Units: round },
      );
      const { body } = await server.request<{ data: { status: string } }>(
        'GET',
        `/api/forecast/runs/${started.data.id}`,
      );
      status = body.data.status;
    }
    expect(status).toBe('succeeded');
    // Whoever wrote last, every record's plan must follow from its own overrides.
    const rows = await server.database.db
      .selectFrom('demand_records as r')
      .innerJoin('products as p', 'p.pid', 'r.pid')
      .selectAll('r')
      .select(['p.unit_cost', 'p.unit_price'])
      .where('r.week_start', '>=', futureRecords[0]!.week_start)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const plan = derivePlan({
        ensembleUnits: row.ensemble_fcst_units,
        revOverridePercent: row.rev_pln_ovrd_percent,
        revOverrideUnits: row.rev_pln_ovrd_units,
        sopOverridePercent: row.sop_pln_ovrd_percent,
        sopOverrideUnits: row.sop_pln_ovrd_units,
        unitCost: row.unit_cost,
        unitPrice: row.unit_price,
      });
      expect(row.prelim_pln_units, `${row.pid} ${row.week_start}`).toBe(plan.prelimUnits);
      expect(row.final_pln_units, `${row.pid} ${row.week_start}`).toBe(plan.finalUnits);
    }
  });
});
