import type { ForecastRun } from '@ps/domain';
import { apiGet, apiPost } from '@/lib/api-client';

export const latestRunQueryKey = ['forecast-runs', 'latest'] as const;

export async function fetchLatestRun(): Promise<ForecastRun | null> {
  const runs = await apiGet<ForecastRun[]>('/forecast/runs', { limit: 1 });
  return runs[0] ?? null;
}

export function startForecastRun(): Promise<ForecastRun> {
  return apiPost<ForecastRun>('/forecast/runs');
}
