import { apiGet, apiPost } from '@/lib/api-client';

/** A forecast run as GET/POST /api/forecast/runs answer it. */
export type ForecastRun = {
  id: number;
  status: 'running' | 'succeeded' | 'failed';
  requestedBy: string;
  totalProducts: number;
  processedProducts: number;
  updatedRecords: number;
  progressPercent: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

export const latestRunQueryKey = ['forecast-runs', 'latest'] as const;

export async function fetchLatestRun(): Promise<ForecastRun | null> {
  const runs = await apiGet<ForecastRun[]>('/forecast/runs', { limit: 1 });
  return runs[0] ?? null;
}

export function startForecastRun(): Promise<ForecastRun> {
  return apiPost<ForecastRun>('/forecast/runs');
}
