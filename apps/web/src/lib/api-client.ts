/**
 * The API client of spec §7: every call goes to /api with JSON and a bearer token, GET/POST/PUT add
 * the clientContext query parameter, envelopes are unwrapped and failures become an ApiError with
 * the spec §8 message.
 *
 * Usage (resolves to the envelope's `data`; rejects with ApiError). Endpoints of the API contracts
 * (packages/domain/src/api) are called with callEndpoint, typed (and optionally checked) by them:
 *   const runs = await callEndpoint(forecastRunEndpoints.listRecent, { query: { limit: 1 }, parse: true });
 *   const page = await apiGet<GridPage>('/demand-planning/real-data', { limit: 1000, nextToken });
 *   const saved = await apiPut<DemandRecord>(`/demand-planning/real-data/${pid}/${sk}`, changes);
 *   await apiDelete(`/demand-planning/real-data/${pid}/${sk}`);
 *   await apiUpload('/demand-planning/import', file, { viewLevel: 'category' });
 * Paths may be given with or without the leading /api.
 */
import type { BodyInput, EndpointContract, ParamsInput, ResponseData } from '@ps/domain';
import { clientContextFromPath, type ClientContext } from '@/lib/auth/groups';
import { rememberPostLoginTarget } from '@/lib/auth/post-login-path';
import { LOCAL_KEYS } from '@/lib/auth/storage-keys';
import { getDataToken } from '@/lib/auth/token-store';
import { i18next } from '../i18n/i18n';

export type HttpMethod = EndpointContract['method'] | 'PATCH';

/** Query values; null and undefined are left out, lists repeat the key. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type ApiRequestOptions = {
  query?: Record<string, QueryValue> | undefined;
  /** JSON-encoded request body. */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Overrides the stored / path-inferred client context (GET, POST and PUT only). */
  clientContext?: ClientContext | undefined;
};

/** A failed call: `message` is what the user should read (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's error code (VALIDATION, STALE, …) when it sent one. */
  readonly code: string | undefined;
  /** Extra detail from the server, e.g. the current record on a 409 STALE. */
  readonly details: unknown;

  constructor(message: string, options: { status: number; code?: string | undefined; details?: unknown }) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.details = options.details;
  }
}

const API_BASE = '/api';
const NON_JSON = Symbol('non-json');

/** Spec §4: the stored context, else inferred from the page path. */
function currentClientContext(): ClientContext {
  const stored = localStorage.getItem(LOCAL_KEYS.clientContext);
  if (stored === 'admin' || stored === 'circor') return stored;
  return clientContextFromPath(window.location.pathname);
}

function urlFor(path: string, query: Record<string, QueryValue> | undefined, clientContext?: ClientContext) {
  const url = new URL(path.startsWith(`${API_BASE}/`) ? path : `${API_BASE}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number)[]) url.searchParams.append(key, String(item));
    } else {
      url.searchParams.set(key, String(value));
    }
  }
  if (clientContext) url.searchParams.set('clientContext', clientContext);
  return `${url.pathname}${url.search}`;
}

function authorizationHeader(): Record<string, string> {
  const token = getDataToken();
  if (!token) {
    console.warn('API call without a sign-in token; the server will refuse it');
    return {};
  }
  return { Authorization: `Bearer ${token}` };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NON_JSON;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const message = body.message ?? body.error;
  return typeof message === 'string' && message ? message : undefined;
}

function codeOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body.code === 'string' ? body.code : undefined;
}

/** Spec §8: 401 logs a warning, goes to / and fails with 'Authentication required'. */
function authenticationRequired(): ApiError {
  console.warn('API call refused: authentication required');
  if (window.location.pathname !== '/') {
    // An expired session: after signing in again the user comes back to this screen.
    rememberPostLoginTarget(window.location.pathname, window.location.search);
    window.location.assign('/');
  }
  return new ApiError(i18next.t('errors:code.UNAUTHENTICATED'), { status: 401, code: 'UNAUTHENTICATED' });
}

/** Spec §8's 'HTTP {status}: {statusText}' for a failure the server did not explain. */
const httpStatusText = (status: number, statusText: string) =>
  i18next.t('errors:httpStatus', { status, statusText });

function failureFrom(response: Response, body: unknown): ApiError {
  if (response.status === 401) return authenticationRequired();
  if (response.status === 403)
    return new ApiError(i18next.t('errors:code.FORBIDDEN'), {
      status: 403,
      code: codeOf(body) ?? 'FORBIDDEN',
    });
  return new ApiError(messageOf(body) ?? httpStatusText(response.status, response.statusText), {
    status: response.status,
    code: codeOf(body),
    details: isRecord(body) ? body.details : undefined,
  });
}

/**
 * Spec §7 unwrapping: a body with a statusCode of 400 or more is an error using its body; otherwise
 * its body (parsed if a string) is the payload; a non-JSON response is success with null data.
 * The payload's {success, data, error} envelope is then opened.
 */
function unwrap<T>(response: Response, body: unknown): T {
  if (body === NON_JSON || body === null) return null as T;
  let payload: unknown = body;
  if (isRecord(body) && typeof body.statusCode === 'number' && 'body' in body) {
    const inner = typeof body.body === 'string' ? (JSON.parse(body.body) as unknown) : body.body;
    if (body.statusCode >= 400) {
      throw new ApiError(messageOf(inner) ?? httpStatusText(body.statusCode, response.statusText), {
        status: body.statusCode,
        code: codeOf(inner),
      });
    }
    payload = inner;
  }
  if (isRecord(payload) && typeof payload.success === 'boolean') {
    if (!payload.success) {
      throw new ApiError(messageOf(payload) ?? i18next.t('errors:requestFailed'), {
        status: response.status,
        code: codeOf(payload),
        details: payload.details,
      });
    }
    return payload.data as T;
  }
  return payload as T;
}

/** One call to the API; resolves to the envelope's data. */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  options: ApiRequestOptions = {},
): Promise<T> {
  const addsContext = method === 'GET' || method === 'POST' || method === 'PUT';
  const url = urlFor(
    path,
    options.query,
    addsContext ? (options.clientContext ?? currentClientContext()) : undefined,
  );
  const hasBody = options.body !== undefined;
  const response = await fetch(url, {
    method,
    mode: 'cors',
    credentials: 'omit',
    headers: {
      Accept: 'application/json',
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
      ...authorizationHeader(),
    },
    body: hasBody ? JSON.stringify(options.body) : undefined,
    signal: options.signal ?? null,
  });
  const body = await readBody(response);
  if (!response.ok) throw failureFrom(response, body === NON_JSON ? null : body);
  return unwrap<T>(response, body);
}

export function apiGet<T>(
  path: string,
  query?: Record<string, QueryValue>,
  options: Omit<ApiRequestOptions, 'query' | 'body'> = {},
): Promise<T> {
  return apiRequest<T>('GET', path, { ...options, query });
}

export function apiPost<T>(
  path: string,
  body?: unknown,
  options: Omit<ApiRequestOptions, 'body'> = {},
): Promise<T> {
  return apiRequest<T>('POST', path, { ...options, body });
}

export function apiPut<T>(
  path: string,
  body?: unknown,
  options: Omit<ApiRequestOptions, 'body'> = {},
): Promise<T> {
  return apiRequest<T>('PUT', path, { ...options, body });
}

export function apiPatch<T>(
  path: string,
  body?: unknown,
  options: Omit<ApiRequestOptions, 'body'> = {},
): Promise<T> {
  return apiRequest<T>('PATCH', path, { ...options, body });
}

export function apiDelete<T>(path: string, options: Omit<ApiRequestOptions, 'body'> = {}): Promise<T> {
  return apiRequest<T>('DELETE', path, options);
}

export type EndpointCallOptions<E extends EndpointContract> = Omit<ApiRequestOptions, 'body'> & {
  params?: ParamsInput<E>;
  body?: BodyInput<E>;
  /** Checks the data against the contract's response schema (worth it for small responses). */
  parse?: boolean;
};

/** A contract path with its parameters filled in: `/api/forecast/runs/:id` → `/api/forecast/runs/7`. */
function pathWith(path: string, params: Record<string, unknown>): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(String(params[name])));
}

/**
 * Calls one endpoint of the API contracts: method and path come from the contract, the result is
 * typed by its response schema, and with `parse` a response that does not match is an error.
 */
export async function callEndpoint<E extends EndpointContract>(
  endpoint: E,
  { params, parse = false, ...options }: EndpointCallOptions<E> = {},
): Promise<ResponseData<E>> {
  const data = await apiRequest<ResponseData<E>>(
    endpoint.method,
    pathWith(endpoint.path, params ?? {}),
    options,
  );
  if (!parse || !('data' in endpoint.response)) return data;
  const parsed = endpoint.response.data.safeParse(data);
  if (!parsed.success)
    throw new Error(i18next.t('errors:invalidResponse', { request: `${endpoint.method} ${endpoint.path}` }));
  return parsed.data as ResponseData<E>;
}

/**
 * Multipart upload (spec §7): one file under the field `file` plus optional fields; Authorization
 * only, the browser sets the multipart content type. 401 goes to /, others 'HTTP {status}: {statusText}'.
 */
export async function apiUpload<T>(
  path: string,
  file: Blob,
  fields: Record<string, string> = {},
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const form = new FormData();
  form.append('file', file);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(urlFor(path, undefined), {
    method: 'POST',
    mode: 'cors',
    credentials: 'omit',
    headers: authorizationHeader(),
    body: form,
    signal: options.signal ?? null,
  });
  const body = await readBody(response);
  if (response.status === 401) throw authenticationRequired();
  if (!response.ok)
    throw new ApiError(`HTTP ${response.status}: ${response.statusText}`, {
      status: response.status,
      code: codeOf(body),
    });
  return unwrap<T>(response, body);
}
