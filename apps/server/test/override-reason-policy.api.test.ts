import type { DemandRecord, PlanningPolicy } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Failure, type Ok } from './support/api-shapes';
import { importAndFollow } from './support/follow-import';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

const POLICY = '/api/planning-policy';
const REFUSAL =
  /^Reason_Code is required: .+ gets an override, and an admin requires every override to carry a reason code$/;

/**
 * The admin's policy that an override carries a reason code: off by default, set by an admin only,
 * and enforced by the server on the single edit, Save Changes (batch) and the spread.
 */
describe.each(backends)('override reason policy on %s', (backend) => {
  let server: TestServer;
  const recordPath = (r: DemandRecord) => `/api/demand-planning/real-data/${r.PID}/${r.Time_Series_sk}`;
  /** A record with no reason code and no override yet, of the admin's clients; another product each call. */
  const usedProducts = new Set<string>();
  const plainRecord = async (): Promise<DemandRecord> => {
    const plain = (await allRecords(server)).find(
      (r) =>
        !usedProducts.has(r.PID) &&
        r.Reason_Code === null &&
        r.SOP_Pln_Ovrd_Units === null &&
        r.SOP_Pln_Ovrd_Percent === null &&
        r.Act_Bkg_Units === null,
    )!;
    usedProducts.add(plain.PID);
    return plain;
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 12 });
  });
  afterAll(async () => server?.close());

  it('is off by default, readable by planners and set by admins only', async () => {
    const read = await server.request<Ok<PlanningPolicy>>('GET', POLICY, undefined, { as: 'circor' });
    expect(read.body.data).toEqual({ requireOverrideReason: false });
    const refused = await server.request('PUT', POLICY, { requireOverrideReason: true }, { as: 'circor' });
    expect(refused.status).toBe(403);
    const bad = await server.request<Failure>('PUT', POLICY, { requireOverrideReason: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/requireOverrideReason/);
    const saved = await server.request<Ok<PlanningPolicy>>('PUT', POLICY, { requireOverrideReason: true });
    expect(saved.body.data).toEqual({ requireOverrideReason: true });
    expect((await server.request<Ok<PlanningPolicy>>('GET', POLICY)).body.data.requireOverrideReason).toBe(
      true,
    );
  });

  it('refuses a single edit that sets an override without a reason code, and takes it with one', async () => {
    const record = await plainRecord();
    const refused = await server.request<Failure>('PUT', recordPath(record), { SOP_Pln_Ovrd_Units: 40 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(REFUSAL);
    const taken = await server.request('PUT', recordPath(record), {
      SOP_Pln_Ovrd_Units: 40,
      Reason_Code: 'Market Trend',
    });
    expect(taken.status).toBe(200);
    // A comment or a cleared override needs no reason code.
    expect((await server.request('PUT', recordPath(record), { Comments: 'checked' })).status).toBe(200);
  });

  it('refuses Save Changes whole when one record gets an override without a reason code', async () => {
    const [first, second] = [await plainRecord(), await plainRecord()];
    const update = (r: DemandRecord, extra: object) => ({
      PID: r.PID,
      Time_Series_sk: r.Time_Series_sk,
      version: r.version,
      ...extra,
    });
    const refused = await server.request<Failure>('POST', '/api/demand-planning/real-data/batch', {
      updates: [
        update(first, { Rev_Pln_Ovrd_Percent: 5, Reason_Code: 'Seasonal Adjustment' }),
        update(second, { Rev_Pln_Ovrd_Percent: 5 }),
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`${second.PID} / `);
    const after = (await allRecords(server)).find(
      (r) => r.PID === first.PID && r.Time_Series_sk === first.Time_Series_sk,
    )!;
    expect(after.Rev_Pln_Ovrd_Percent).toBeNull();
  });

  it('refuses a spread over records without a reason code unless the spread gives one', async () => {
    const record = await plainRecord();
    const cell = { viewLevel: 'sku', drillDown: 'none', group: record.PID, field: 'SOP_Pln_Ovrd_Units' };
    const refused = await server.request<Failure>('POST', '/api/demand-planning/spread', {
      ...cell,
      value: 900,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(REFUSAL);
    const taken = await server.request('POST', '/api/demand-planning/spread', {
      ...cell,
      value: 900,
      reasonCode: 'Strategic Initiative',
    });
    expect(taken.status).toBe(200);
    const mine = (await allRecords(server)).filter(
      (r) => r.PID === record.PID && r.SOP_Pln_Ovrd_Units !== null,
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.Reason_Code === 'Strategic Initiative')).toBe(true);
  });

  it('previews a spread without a reason code, so the planner sees what it moves before choosing one', async () => {
    const record = await plainRecord();
    const cell = { viewLevel: 'sku', drillDown: 'none', group: record.PID, field: 'SOP_Pln_Ovrd_Units' };
    const preview = await server.request<Ok<{ saved: boolean; changedRecords: number }>>(
      'POST',
      '/api/demand-planning/spread',
      { ...cell, value: 700, preview: true },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.data.saved).toBe(false);
    expect(preview.body.data.changedRecords).toBeGreaterThan(0);
  });

  it('refuses an imported row with overrides and no reason code, and writes the reason a row gives', async () => {
    const [refusedRecord, takenRecord] = [await plainRecord(), await plainRecord()];
    const product = async (pid: string) =>
      server.database.db
        .selectFrom('products')
        .select(['pid', 'pf', 'bu'])
        .where('pid', '=', pid)
        .executeTakeFirstOrThrow();
    const [refused, taken] = [await product(refusedRecord.PID), await product(takenRecord.PID)];
    const csv = [
      'SKU,Category,Business Unit,Override Q1,Reason Code',
      `${refused.pid},${refused.pf},${refused.bu},5000,`,
      `${taken.pid},${taken.pf},${taken.bu},6000,seasonal adjustment`,
    ].join('\n');
    const form = () => {
      const data = new FormData();
      data.append('file', new Blob([csv]), 'plan.csv');
      return data;
    };
    const token = (await server.tokensFor('admin')).id_token;
    const preview = await fetch(`${server.baseUrl}/api/demand-planning-items/import/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form(),
    });
    const previewBody = await preview.json();
    if (preview.status !== 200) throw new Error(JSON.stringify(previewBody));
    const previewed = (previewBody as Ok<{ validRowCount: number; errors: Failure[] }>).data;
    expect(previewed.validRowCount).toBe(1);
    expect(previewed.errors).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'reasonCode',
        message:
          'reasonCode is required: the row sets an override, and an admin requires every override to carry a reason code',
      }),
    ]);

    const { outcome } = await importAndFollow(server.baseUrl, token, form());
    expect(outcome.failed).toBe(1);
    expect(outcome.rows.find((r) => r.sku === refused.pid)?.message).toMatch(
      /^Failed to import .+: reasonCode is required/,
    );
    const records = await allRecords(server);
    const overridden = records.filter((r) => r.PID === taken.pid && r.SOP_Pln_Ovrd_Units !== null);
    expect(overridden.length).toBeGreaterThan(0);
    expect(overridden.every((r) => r.Reason_Code === 'Seasonal Adjustment')).toBe(true);
    expect(records.filter((r) => r.PID === refused.pid).every((r) => r.SOP_Pln_Ovrd_Units === null)).toBe(
      true,
    );
    const audited = await server.database.db
      .selectFrom('audit_log')
      .select(['field', 'new_value'])
      .where('pid', '=', taken.pid)
      .where('field', '=', 'Reason_Code')
      .execute();
    expect(audited.length).toBe(overridden.length);
    expect(audited.every((a) => a.new_value === 'Seasonal Adjustment')).toBe(true);

    const item = { sku: refused.pid, category: refused.pf, businessUnit: refused.bu, overrideQ1: 5000 };
    const itemRefused = await server.request<Failure>('POST', '/api/demand-planning-items', item);
    expect(itemRefused.status).toBe(400);
    expect(itemRefused.body.message).toMatch(/reasonCode is required/);
    const badCode = await server.request<Failure>('POST', '/api/demand-planning-items', {
      ...item,
      reasonCode: 'Because',
    });
    expect(badCode.status).toBe(400);
    expect(badCode.body.message).toMatch(/reasonCode.*Market Trend/);
    const itemTaken = await server.request('POST', '/api/demand-planning-items', {
      ...item,
      reasonCode: 'Market Trend',
    });
    expect(itemTaken.status).toBe(201);
  });

  it('lets overrides through again once the admin turns the policy off', async () => {
    await server.request('PUT', POLICY, { requireOverrideReason: false });
    const record = await plainRecord();
    expect((await server.request('PUT', recordPath(record), { SOP_Pln_Ovrd_Units: 12 })).status).toBe(200);
  });
});
