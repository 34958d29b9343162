import {
  dashboardEndpoints,
  demandRecordEndpoints,
  planCycleEndpoints,
  planningGridEndpoints,
  type BatchUpdate,
  type DashboardMetrics,
  type DemandRecord,
  type FilterOptions,
  type GridCell,
  type GridCellNotes,
  type GridPage,
  type PlanCycle,
  type PlanCyclePreview,
  type ResponseData,
  type SummaryStats,
} from '@ps/domain';
import { getDataToken, type ClientContext } from '@/features/auth';
import { ApiError, callEndpoint } from '@/lib/api-client';
import {
  csvExportFilename,
  filenameFromContentDisposition,
  gridQueryParams,
  type GridRequest,
} from '../utils/grid-query';

/**
 * Spec §5: dashboard and summary responses must be an object with success true, else an error. The
 * API client rejects an envelope whose success is false; a payload without the expected numbers
 * (no envelope at all, or a broken one) is refused by the contract's schema.
 */
export function fetchDashboardMetrics(signal?: AbortSignal): Promise<DashboardMetrics> {
  return callEndpoint(dashboardEndpoints.metrics, { signal, parse: true });
}

export function fetchSummaryStats(signal?: AbortSignal): Promise<SummaryStats> {
  return callEndpoint(dashboardEndpoints.summary, { signal, parse: true });
}

export function fetchFilterOptions(signal?: AbortSignal): Promise<FilterOptions> {
  return callEndpoint(planningGridEndpoints.filterOptions, { signal, parse: true });
}

/** A grid page is up to 500 rows: typed by the contract, not re-checked in the browser. */
export function fetchGridPage(request: GridRequest, signal?: AbortSignal): Promise<GridPage> {
  return callEndpoint(planningGridEndpoints.grid, {
    query: Object.fromEntries(gridQueryParams(request)),
    signal,
  });
}

/** The notes of roll-up cells of the request's view (the cells a page on screen shows). */
export function fetchGridNotes(
  request: GridRequest,
  cells: GridCell[],
  signal?: AbortSignal,
): Promise<GridCellNotes[]> {
  return callEndpoint(planningGridEndpoints.gridNotes, {
    query: Object.fromEntries(gridQueryParams(request)),
    body: { cells },
    signal,
  });
}

export type BatchSaveResult = ResponseData<typeof demandRecordEndpoints.batch>;

/** All-or-nothing save of the pending edits (one transaction on the server). */
export function saveBatch(updates: BatchUpdate['updates']): Promise<BatchSaveResult> {
  return callEndpoint(demandRecordEndpoints.batch, { body: { updates } });
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

/** What a publish would record now, per client (the publish confirmation shows it). */
export function fetchPublishPreview(signal?: AbortSignal): Promise<PlanCyclePreview[]> {
  return callEndpoint(planCycleEndpoints.preview, { signal, parse: true });
}

/** Publishes a plan cycle: Final → P1, P1 → P2 for every client the admin may see. */
export function publishPlanCycle(): Promise<PlanCycle[]> {
  return callEndpoint(planCycleEndpoints.publish, { body: {}, parse: true });
}
