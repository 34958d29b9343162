import type { ForecastRun } from '@ps/domain';
import { expect } from 'vitest';
import type { Ok } from './api-shapes';
import type { TestServer } from './test-server';

/** Starts a forecast run as the admin and polls it, as the page does, until it is no longer running. */
export async function completedForecastRun(server: TestServer, timeoutMs = 120_000): Promise<ForecastRun> {
  const started = await server.request<Ok<ForecastRun>>('POST', '/api/forecast/runs');
  expect(started.status).toBe(202);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await server.request<Ok<ForecastRun>>(
      'GET',
      `/api/forecast/runs/${started.body.data.id}`,
    );
    if (body.data.status !== 'running') return body.data;
    if (Date.now() > deadline) throw new Error(`Run ${started.body.data.id} still running`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
