import type { DemandRecord, ForecastRun } from '@ps/domain';
import { parseGlobalModels } from '@ps/forecast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './support/backends';
import { completedForecastRun } from './support/forecast-run';
import { startTestServer, type TestServer } from './support/test-server';

type Envelope<T> = { data: T };

/** Enough products with 130 weeks of history for the member to train (it needs 30). */
const PRODUCTS = 40;
/** 12-week window: 6 weeks past, 6 future, so the run's horizon is 6 steps. */
const HORIZON = 6;

describe.each(backends)('a forecast run with the learned global member on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    // Several chunks of whole business units: every chunk forecasts with the one model trained on all 40.
    server = await startTestServer(
      backend,
      { products: PRODUCTS, weeks: 12 },
      { env: { FORECAST_CHUNK_PRODUCTS: '16' } },
    );
  });
  afterAll(async () => server?.close());

  const completedRun = (): Promise<ForecastRun> => completedForecastRun(server);

  async function statisticalForecasts(): Promise<string[]> {
    const { body } = await server.request<Envelope<{ items: DemandRecord[] }>>(
      'GET',
      '/api/demand-planning/real-data?limit=5000',
    );
    return body.data.items
      .filter((r) => r.Act_Bkg_Units === null)
      .map((r) => `${r.PID} ${r.Time_Series_sk} ${r.Ensemble_Fcst_Units} ${r.Naïve_Rev_Mfg_Fcst_Bk_Units}`)
      .sort();
  }

  async function accuracyMembers(runId: number): Promise<Map<string, { model: string; weight: number }[]>> {
    const rows = await server.database.db
      .selectFrom('forecast_accuracy')
      .select(['pid', 'members', 'run_id'])
      .execute();
    expect(rows.every((row) => row.run_id === runId)).toBe(true);
    return new Map(rows.map((row) => [row.pid, row.members]));
  }

  it('trains one member per run before its chunks, weights it per product, and forecasts the same twice', async () => {
    const first = await completedRun();
    expect(first).toMatchObject({ status: 'succeeded', totalProducts: PRODUCTS, progressPercent: 100 });
    const runRow = await server.database.db
      .selectFrom('forecast_runs')
      .select(['horizon', 'training_steps', 'trained_steps'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(runRow).toEqual({ horizon: HORIZON, training_steps: HORIZON, trained_steps: HORIZON });
    const stored = await server.database.db
      .selectFrom('forecast_run_global_models')
      .select('models')
      .where('run_id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(parseGlobalModels(stored.models)).toHaveLength(HORIZON);

    const firstForecasts = await statisticalForecasts();
    const firstMembers = await accuracyMembers(first.id);
    // The member is weighted by each product's back-test like every configuration: it carries
    // weight in products where it earned some, and not the same weight everywhere.
    const memberWeights = [...firstMembers.values()].map(
      (members) => members.find((m) => m.model === 'gbm-global')?.weight ?? 0,
    );
    expect(memberWeights.filter((w) => w > 0).length).toBeGreaterThan(PRODUCTS / 2);
    expect(new Set(memberWeights).size).toBeGreaterThan(1);
    expect(Math.max(...memberWeights)).toBeLessThan(1);

    const second = await completedRun();
    expect(second.status).toBe('succeeded');
    expect(await statisticalForecasts()).toEqual(firstForecasts);
    const secondMembers = await accuracyMembers(second.id);
    expect(Object.fromEntries(secondMembers)).toEqual(Object.fromEntries(firstMembers));
  });
});
