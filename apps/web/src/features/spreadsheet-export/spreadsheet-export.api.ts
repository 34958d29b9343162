import {
  csvFileName,
  detailedWorkbookFileName,
  exportEndpoints,
  templateFileName,
  workbookFileName,
} from '@ps/domain';
import { getDataToken, type ClientContext } from '@/features/auth';
import {
  filenameFromContentDisposition,
  gridQueryParams,
  type GridRequest,
} from '@/features/demand-planning';
import { ApiError } from '@/lib/api-client';

export type ExportView = Omit<GridRequest, 'offset' | 'limit'>;
export type DownloadedFile = { filename: string; rows: number | null };

async function errorMessageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown };
    const message = body.message ?? body.error;
    if (typeof message === 'string' && message) return message;
  } catch {
    // not JSON: fall back to the status line (spec §8)
  }
  return `HTTP ${response.status}: ${response.statusText}`;
}

/**
 * Fetches a file the server streams and hands it to the browser's downloads. A link cannot carry
 * the bearer token, so the file is fetched and saved from a Blob.
 */
async function download(
  path: string,
  params: URLSearchParams,
  fallbackName: string,
): Promise<DownloadedFile> {
  const token = getDataToken();
  const response = await fetch(`${path}?${params.toString()}`, {
    credentials: 'omit',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new ApiError(await errorMessageOf(response), { status: response.status });
  const blob = await response.blob();
  const filename =
    filenameFromContentDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  const rows = response.headers.get('x-export-rows');
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handed to the download manager.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { filename, rows: rows === null ? null : Number(rows) };
}

const viewParams = (view: ExportView, clientContext: ClientContext) => {
  const params = gridQueryParams(view);
  params.set('clientContext', clientContext);
  return params;
};

/** Quick Export: what the grid shows, as the user's Export Format setting says. */
export function downloadQuickExport(view: ExportView, clientContext: ClientContext, format: 'xlsx' | 'csv') {
  const now = new Date();
  return format === 'csv'
    ? download(exportEndpoints.gridCsv.path, viewParams(view, clientContext), csvFileName(now))
    : download(
        exportEndpoints.gridXlsx.path,
        viewParams(view, clientContext),
        workbookFileName(view.viewLevel, view.drillDown, now),
      );
}

export function downloadDetailedExport(view: ExportView, clientContext: ClientContext) {
  return download(
    exportEndpoints.detailedXlsx.path,
    viewParams(view, clientContext),
    detailedWorkbookFileName(view.viewLevel, view.drillDown, new Date()),
  );
}

export function downloadTemplate(view: Pick<ExportView, 'viewLevel' | 'drillDown'>) {
  const params = new URLSearchParams({ viewLevel: view.viewLevel, drillDown: view.drillDown });
  return download(
    exportEndpoints.templateXlsx.path,
    params,
    templateFileName(view.viewLevel, view.drillDown),
  );
}
