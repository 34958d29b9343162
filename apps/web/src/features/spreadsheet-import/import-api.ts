import { importEndpoints, type ImportJob, type ImportOutcome, type ImportPreview } from '@ps/domain';
import { getDataToken } from '@/features/auth';
import { ApiError, callEndpoint } from '@/lib/api-client';
import { i18next } from '@/i18n/i18n';

/** Spec §5: one file, .xlsx, .xls or .csv. */
export const ACCEPTED_EXTENSIONS = ['.xlsx', '.xls', '.csv'] as const;

export type FileRejection = 'type' | 'count';

/** Why the drop zone refuses a choice of files, or null when it holds exactly one accepted file. */
export function rejectionOf(files: readonly File[]): FileRejection | null {
  if (files.length !== 1) return 'count';
  const name = files[0]!.name.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((extension) => name.endsWith(extension)) ? null : 'type';
}

/**
 * Uploads the file as multipart (field `file`, Authorization only, spec §7). The server's own
 * message is kept when it sends one, since it names what is wrong with the file; otherwise spec
 * §8's 'HTTP {status}: {statusText}'.
 */
async function upload<T>(path: string, file: File, signal?: AbortSignal): Promise<T> {
  const form = new FormData();
  form.append('file', file);
  const token = getDataToken();
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'omit',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: form,
    signal: signal ?? null,
  });
  const body = (await response.json().catch(() => null)) as {
    success?: boolean;
    data?: T;
    message?: string;
    code?: string;
  } | null;
  if (response.status === 401) {
    window.location.assign('/');
    throw new ApiError(i18next.t('errors:code.UNAUTHENTICATED'), { status: 401 });
  }
  if (!response.ok || !body?.success) {
    const message =
      body?.message ??
      i18next.t('errors:httpStatus', { status: response.status, statusText: response.statusText });
    throw new ApiError(message, { status: response.status, code: body?.code });
  }
  return body.data as T;
}

export const previewImport = (file: File, signal?: AbortSignal) =>
  upload<ImportPreview>(importEndpoints.preview.path, file, signal);

/** How often the dialog asks how far a running import got. */
const POLL_MS = 500;

/**
 * Uploads the file, which the server validates and then applies in the background, and follows
 * the import until it ends, telling `onProgress` each time. Resolves with the outcome; a failed
 * import rejects with the server's reason (nothing was written).
 */
export async function runImport(file: File, onProgress: (job: ImportJob) => void): Promise<ImportOutcome> {
  let job = await upload<ImportJob>(importEndpoints.import.path, file);
  onProgress(job);
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await callEndpoint(importEndpoints.job, { params: { id: job.id } });
    onProgress(job);
  }
  if (job.status === 'failed' || !job.outcome) throw new ApiError(job.error ?? '', { status: 400 });
  return job.outcome;
}
