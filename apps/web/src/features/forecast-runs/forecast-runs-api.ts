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

export const runPreviewQueryKey = ['forecast-runs', 'preview'] as const;

/** What a run started now would rewrite (products and future records), for the confirmation. */
export function fetchRunPreview(): Promise<{ products: number; records: number }> {
  return callEndpoint(forecastRunEndpoints.preview, { parse: true });
}
