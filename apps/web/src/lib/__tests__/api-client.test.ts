// @vitest-environment jsdom
import { forecastRunEndpoints } from '@ps/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiDelete, ApiError, apiGet, apiPost, apiPut, apiUpload, callEndpoint } from '../api-client';

type Call = { url: string; init: RequestInit };

/** Answers every fetch with the given status and body, recording the requests. */
function answer(status: number, body: unknown, statusText = 'Status'): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, statusText });
  });
  return calls;
}

const headersOf = (call: Call) => call.init.headers as Record<string, string>;

describe('api client (spec §7, §8)', () => {
  beforeEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/demand-planning');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the ID token as bearer and adds clientContext on GET, POST and PUT only', async () => {
    localStorage.setItem('id_token', 'the-id-token');
    localStorage.setItem('client_context', 'circor');
    const calls = answer(200, { success: true, data: { ok: 1 }, error: null });
    await apiGet('/demand-planning/real-data', { limit: 1000, nextToken: null, bu: ['A', 'B'] });
    await apiPost('/api/demand-planning/real-data/batch', { updates: [] });
    await apiPut('/demand-planning/real-data/P/20261115', { Comments: 'x' });
    await apiDelete('/demand-planning/real-data/P/20261115');
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /api/demand-planning/real-data?limit=1000&bu=A&bu=B&clientContext=circor',
      'POST /api/demand-planning/real-data/batch?clientContext=circor',
      'PUT /api/demand-planning/real-data/P/20261115?clientContext=circor',
      'DELETE /api/demand-planning/real-data/P/20261115',
    ]);
    expect(headersOf(calls[0]!).Authorization).toBe('Bearer the-id-token');
    expect(headersOf(calls[1]!)['Content-Type']).toBe('application/json');
    expect(calls[1]!.init.credentials).toBe('omit');
  });

  it('infers the client context from the path when none is stored', async () => {
    window.history.replaceState(null, '', '/circor');
    const calls = answer(200, { success: true, data: null, error: null });
    await apiGet('/summary-stats');
    expect(calls[0]!.url).toBe('/api/summary-stats?clientContext=circor');
  });

  it('unwraps the envelope, a statusCode/body wrapper and non-JSON bodies', async () => {
    answer(200, { success: true, data: { items: [1] }, error: null });
    await expect(apiGet('/x')).resolves.toEqual({ items: [1] });
    answer(200, { statusCode: 200, body: JSON.stringify({ success: true, data: 7, error: null }) });
    await expect(apiGet('/x')).resolves.toBe(7);
    answer(200, { statusCode: 422, body: { message: 'Bad row' } });
    await expect(apiGet('/x')).rejects.toThrow('Bad row');
    answer(200, 'plain text');
    await expect(apiGet('/x')).resolves.toBeNull();
    answer(200, { success: false, data: null, error: 'Nope' });
    await expect(apiGet('/x')).rejects.toThrow('Nope');
  });

  it('maps 401 to Authentication required, 403 to Insufficient permissions', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const assign = vi.fn();
    vi.stubGlobal('location', {
      ...window.location,
      pathname: '/demand-planning',
      origin: 'http://localhost',
      assign,
    });
    answer(401, { success: false, error: 'Authentication required' });
    await expect(apiGet('/x')).rejects.toMatchObject({ message: 'Authentication required', status: 401 });
    expect(assign).toHaveBeenCalledWith('/');
    expect(warn).toHaveBeenCalled();
    answer(403, { success: false, error: 'whatever the server said' });
    await expect(apiGet('/x')).rejects.toMatchObject({ message: 'Insufficient permissions', status: 403 });
    warn.mockRestore();
  });

  it('uses the server message, else HTTP {status}: {statusText}', async () => {
    answer(409, {
      success: false,
      error: 'Changed by someone else',
      message: 'Changed by someone else',
      code: 'STALE',
      details: { current: 1 },
    });
    const stale = await apiPut('/x', {}).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale).toMatchObject({
      message: 'Changed by someone else',
      status: 409,
      code: 'STALE',
      details: { current: 1 },
    });
    answer(502, '<html>bad gateway</html>', 'Bad Gateway');
    await expect(apiGet('/x')).rejects.toThrow('HTTP 502: Bad Gateway');
  });

  it('uploads one file under "file" with Authorization only', async () => {
    localStorage.setItem('id_token', 'tok');
    const calls = answer(200, { success: true, data: { imported: 2 }, error: null });
    await expect(apiUpload('/import', new Blob(['a,b']), { viewLevel: 'sku' })).resolves.toEqual({
      imported: 2,
    });
    const form = calls[0]!.init.body as FormData;
    expect(form.get('file')).toBeInstanceOf(Blob);
    expect(form.get('viewLevel')).toBe('sku');
    expect(headersOf(calls[0]!)).toEqual({ Authorization: 'Bearer tok' });
    answer(500, { message: 'ignored for uploads' }, 'Internal Server Error');
    await expect(apiUpload('/import', new Blob(['x']))).rejects.toThrow('HTTP 500: Internal Server Error');
  });

  const run = {
    id: 7,
    status: 'running',
    requestedBy: 'Demo Admin',
    totalProducts: 10,
    processedProducts: 4,
    updatedRecords: 0,
    progressPercent: 40,
    error: null,
    startedAt: '2026-11-22T10:00:00.000Z',
    finishedAt: null,
  };

  it('calls a contract endpoint with its method and path, its parameters filled in', async () => {
    const calls = answer(200, { success: true, data: run, error: null });
    await expect(
      callEndpoint(forecastRunEndpoints.get, { params: { id: '7' }, parse: true }),
    ).resolves.toEqual(run);
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /api/forecast/runs/7?clientContext=admin',
    ]);
  });

  it("refuses a response that breaks the contract's schema when asked to check it", async () => {
    answer(200, { success: true, data: { ...run, progressPercent: 140 }, error: null });
    await expect(
      callEndpoint(forecastRunEndpoints.get, { params: { id: '7' }, parse: true }),
    ).rejects.toThrow('Invalid response from the server (GET /api/forecast/runs/:id)');
  });
});
