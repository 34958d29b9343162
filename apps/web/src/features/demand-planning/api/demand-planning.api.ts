import type {
  BatchUpdate,
  DashboardMetrics,
  DemandRecord,
  FilterOptions,
  GridPage,
  SummaryStats,
} from '@ps/domain';
import { z } from 'zod';
import { getDataToken, type ClientContext } from '@/features/auth';
import { apiGet, apiPost, ApiError } from '@/lib/api-client';
import {
  csvExportFilename,
  filenameFromContentDisposition,
  gridQueryParams,
  type GridRequest,
} from '../utils/grid-query';

const ZFiniteNumber = z.number().refine(Number.isFinite);

/**
 * Spec §5: dashboard and summary responses must be an object with success true, else an error. The
 * API client rejects an envelope whose success is false; a payload without the expected numbers
 * (no envelope at all, or a broken one) is refused here.
 */
const ZDashboardMetrics = z.object({
  lastPublishValue: ZFiniteNumber,
  currentPublishValue: ZFiniteNumber,
  quarterChange: ZFiniteNumber,
  yearOverYearChange: ZFiniteNumber,
  quarter: z.string(),
  asOf: z.string(),
}) satisfies z.ZodType<DashboardMetrics>;

const ZSummaryStats = z.object({
  totalSkus: ZFiniteNumber,
  modifiedToday: ZFiniteNumber,
  pendingReview: ZFiniteNumber,
  netImpact: ZFiniteNumber,
  positiveOverrides: ZFiniteNumber,
  negativeOverrides: ZFiniteNumber,
}) satisfies z.ZodType<SummaryStats>;

function validated<T>(schema: z.ZodType<T>, payload: unknown, what: string): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new Error(`Invalid ${what} response from the server`);
  return parsed.data;
}

export async function fetchDashboardMetrics(signal?: AbortSignal): Promise<DashboardMetrics> {
  return validated(
    ZDashboardMetrics,
    await apiGet<unknown>('/dashboard-metrics', {}, { signal }),
    'dashboard metrics',
  );
}

export async function fetchSummaryStats(signal?: AbortSignal): Promise<SummaryStats> {
  return validated(
    ZSummaryStats,
    await apiGet<unknown>('/summary-stats', {}, { signal }),
    'summary statistics',
  );
}

export function fetchFilterOptions(signal?: AbortSignal): Promise<FilterOptions> {
  return apiGet<FilterOptions>('/demand-planning/filter-options', {}, { signal });
}

export function fetchGridPage(request: GridRequest, signal?: AbortSignal): Promise<GridPage> {
  return apiGet<GridPage>('/demand-planning/grid', Object.fromEntries(gridQueryParams(request)), { signal });
}

export type BatchSaveResult = { updatedRecords: number; changedFields: number; items: DemandRecord[] };

/** All-or-nothing save of the pending edits (one transaction on the server). */
export function saveBatch(updates: BatchUpdate['updates']): Promise<BatchSaveResult> {
  return apiPost<BatchSaveResult>('/demand-planning/real-data/batch', { updates });
}

/** The current records the server returned with a 409 STALE, or null for any other failure. */
export function staleRecordsOf(error: unknown): DemandRecord[] | null {
  if (!(error instanceof ApiError) || error.code !== 'STALE') return null;
  const current = (error.details as { current?: DemandRecord | DemandRecord[] } | undefined)?.current;
  if (!current) return [];
  return Array.isArray(current) ? current : [current];
}

async function errorMessageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown };
    const message = body.message ?? body.error;
    if (typeof message === 'string' && message) return message;
  } catch {
    // not JSON: fall back to the status line
  }
  return `HTTP ${response.status}: ${response.statusText}`;
}

/**
 * Downloads the CSV of what the grid shows (filters and view level) as the server streams it.
 * A link cannot carry the bearer token, so the file is fetched and handed to the browser as a Blob.
 * Returns the file name used.
 */
export async function downloadGridCsv(
  request: Omit<GridRequest, 'offset' | 'limit'>,
  clientContext: ClientContext,
): Promise<string> {
  const params = gridQueryParams(request);
  params.set('clientContext', clientContext);
  const token = getDataToken();
  const response = await fetch(`/api/demand-planning/export.csv?${params.toString()}`, {
    credentials: 'omit',
    headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) throw new ApiError(await errorMessageOf(response), { status: response.status });
  const blob = await response.blob();
  const filename =
    filenameFromContentDisposition(response.headers.get('content-disposition')) ??
    csvExportFilename(new Date());
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handed to the download manager.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return filename;
}
