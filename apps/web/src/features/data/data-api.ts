import {
  dataLoadEndpoints,
  planCycleEndpoints,
  type DataLoadEntity,
  type DataLoadJob,
} from '@ps/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getDataToken } from '@/features/auth';
import { i18next } from '@/i18n/i18n';
import { ApiError, callEndpoint } from '@/lib/api-client';

export const LOAD_LOG_KEY = ['data-loads', 'log'] as const;
/** How often the page asks how far a running load got. */
const POLL_MS = 500;

const authorization = (): Record<string, string> => {
  const token = getDataToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

async function failureOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { message?: string; code?: string } | null;
  if (response.status === 401) {
    window.location.assign('/');
    return new ApiError(i18next.t('errors:code.UNAUTHENTICATED'), { status: 401 });
  }
  const message =
    body?.message ?? i18next.t('errors:httpStatus', { status: response.status, statusText: response.statusText });
  return new ApiError(message, { status: response.status, code: body?.code });
}

/**
 * Uploads one file of an entity (multipart, field `file`) and follows the load until it ends,
 * telling `onProgress` each time. The server's message names what is wrong with a refused upload.
 */
export async function runLoad(
  entity: DataLoadEntity,
  file: File,
  dryRun: boolean,
  onProgress: (job: DataLoadJob) => void,
): Promise<DataLoadJob> {
  const form = new FormData();
  form.append('file', file);
  const path = dataLoadEndpoints.load.path.replace(':entity', entity);
  const response = await fetch(`${path}${dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    credentials: 'omit',
    headers: authorization(),
    body: form,
  });
  if (!response.ok) throw await failureOf(response);
  let job = ((await response.json()) as { data: DataLoadJob }).data;
  onProgress(job);
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await callEndpoint(dataLoadEndpoints.job, { params: { id: job.id } });
    onProgress(job);
  }
  return job;
}

/** Saves a fetched file under `name`. */
async function save(response: Response, name: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Fetches a template with the bearer token (a link cannot carry it) and saves it. */
export async function downloadTemplate(entity: DataLoadEntity, format: 'csv' | 'xlsx'): Promise<void> {
  const path = dataLoadEndpoints.template.path.replace(':entity', entity);
  const response = await fetch(`${path}?format=${format}`, { credentials: 'omit', headers: authorization() });
  if (!response.ok) throw await failureOf(response);
  await save(response, `${entity}-template.${format}`);
}

/**
 * Fetches the consensus plan, whole or the changes since a plan version, and saves it under the
 * name the server gives it.
 */
export async function downloadConsensusPlan(format: 'csv' | 'xlsx', sinceVersion: number | null): Promise<void> {
  const endpoint = format === 'csv' ? planCycleEndpoints.consensusPlanCsv : planCycleEndpoints.consensusPlanXlsx;
  const query = sinceVersion === null ? '' : `?sinceVersion=${sinceVersion}`;
  const response = await fetch(`${endpoint.path}${query}`, { credentials: 'omit', headers: authorization() });
  if (!response.ok) throw await failureOf(response);
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  await save(response, named ?? `consensus-plan.${format}`);
}

/** The published plan versions the caller may see, newest first. */
export function usePlanVersions() {
  // Asked again each time the page opens: a publish elsewhere in the app adds a version.
  return useQuery({
    queryKey: ['plan-cycles', 'list'],
    queryFn: () => callEndpoint(planCycleEndpoints.list),
    refetchOnMount: 'always',
  });
}

export function useLoadLog() {
  return useQuery({ queryKey: LOAD_LOG_KEY, queryFn: () => callEndpoint(dataLoadEndpoints.log) });
}

export function useRefreshLoadLog() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: LOAD_LOG_KEY });
}
