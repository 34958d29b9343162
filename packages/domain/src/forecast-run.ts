/** A forecast run as the API reports it (GET/POST /api/forecast/runs). */
export type ForecastRun = {
  id: number;
  status: 'running' | 'succeeded' | 'failed';
  requestedBy: string;
  totalProducts: number;
  processedProducts: number;
  updatedRecords: number;
  /** 0–100. */
  progressPercent: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};
