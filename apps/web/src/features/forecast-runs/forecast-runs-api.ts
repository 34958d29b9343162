import { forecastRunEndpoints, type ForecastRun } from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

export const latestRunQueryKey = ['forecast-runs', 'latest'] as const;

export async function fetchLatestRun(): Promise<ForecastRun | null> {
  const runs = await callEndpoint(forecastRunEndpoints.listRecent, { query: { limit: 1 }, parse: true });
  return runs[0] ?? null;
}

export function startForecastRun(): Promise<ForecastRun> {
  return callEndpoint(forecastRunEndpoints.start, { parse: true });
}
