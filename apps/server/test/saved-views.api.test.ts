import type { SavedView, SavedViewState } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

const STATE: SavedViewState = {
  layout: 'table',
  viewLevel: 'sku',
  drillDown: 'monthly',
  bu: ['Industrial'],
  pf: [],
  region: ['EMEA'],
  search: 'PRD-0001',
  sort: { field: 'Final_Pln_Units', dir: 'desc' },
  pageSize: 50,
  hiddenColumns: ['Act_Bkg_Cost', 'Naïve_Rev_Mfg_Fcst_Bk_Units'],
};

describe.each(backends)('saved views on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 4, weeks: 4 });
  });
  afterAll(() => server?.close());

  const list = async (as: 'admin' | 'circor') =>
    (await server.request<Ok<SavedView[]>>('GET', '/api/saved-views', undefined, { as })).body.data;

  it('saves, lists, renames and deletes the caller’s own views', async () => {
    expect(await list('circor')).toEqual([]);
    const created = await server.request<Ok<SavedView>>(
      'POST',
      '/api/saved-views',
      { name: '  EMEA by month  ', state: STATE },
      { as: 'circor' },
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'EMEA by month', state: STATE });
    const id = created.body.data.id;
    await server.request(
      'POST',
      '/api/saved-views',
      { name: 'all families', state: STATE },
      { as: 'circor' },
    );
    expect((await list('circor')).map((view) => view.name)).toEqual(['all families', 'EMEA by month']);

    const renamed = await server.request<Ok<SavedView>>(
      'PUT',
      `/api/saved-views/${id}`,
      { name: 'EMEA monthly' },
      { as: 'circor' },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id, name: 'EMEA monthly', state: STATE });
    const restated = await server.request<Ok<SavedView>>(
      'PUT',
      `/api/saved-views/${id}`,
      { state: { ...STATE, layout: 'time-phased', hiddenColumns: [] } },
      { as: 'circor' },
    );
    expect(restated.body.data.state.layout).toBe('time-phased');
    expect(restated.body.data.name).toBe('EMEA monthly');

    const removed = await server.request<Ok<{ id: number }>>('DELETE', `/api/saved-views/${id}`, undefined, {
      as: 'circor',
    });
    expect(removed.status).toBe(200);
    expect((await list('circor')).map((view) => view.name)).toEqual(['all families']);
    expect(
      (await server.request('DELETE', `/api/saved-views/${id}`, undefined, { as: 'circor' })).status,
    ).toBe(404);
  });

  it('keeps each user’s views their own: another user’s id is 404, never 403', async () => {
    const mine = await server.request<Ok<SavedView>>(
      'POST',
      '/api/saved-views',
      { name: 'Admin only', state: STATE },
      { as: 'admin' },
    );
    const id = mine.body.data.id;
    expect((await list('circor')).some((view) => view.id === id)).toBe(false);
    const rename = await server.request<Failure>(
      'PUT',
      `/api/saved-views/${id}`,
      { name: 'Mine now' },
      { as: 'circor' },
    );
    expect(rename.status).toBe(404);
    expect(rename.body.code).toBe('NOT_FOUND');
    const unknown = await server.request<Failure>(
      'PUT',
      '/api/saved-views/999999',
      { name: 'x' },
      { as: 'circor' },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(rename.body.message);
    expect(
      (await server.request('DELETE', `/api/saved-views/${id}`, undefined, { as: 'circor' })).status,
    ).toBe(404);
    // The same name is free for another user.
    const circors = await server.request(
      'POST',
      '/api/saved-views',
      { name: 'admin ONLY', state: STATE },
      { as: 'circor' },
    );
    expect(circors.status).toBe(201);
    expect((await list('admin')).find((view) => view.id === id)?.name).toBe('Admin only');
    expect((await server.request('GET', '/api/saved-views', undefined, { as: 'nogroup' })).status).toBe(403);
    expect((await server.request('GET', '/api/saved-views', undefined, { as: 'anonymous' })).status).toBe(
      401,
    );
  });

  it('refuses a bad name, a taken name or a bad state with a clear 4xx and keeps what was saved', async () => {
    const post = (body: unknown) =>
      server.request<Failure>('POST', '/api/saved-views', body, { as: 'admin' });
    const empty = await post({ name: '   ', state: STATE });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('name must not be empty');
    const long = await post({ name: 'x'.repeat(61), state: STATE });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('name must be at most 60 characters');
    expect((await post({ name: 'y'.repeat(60), state: STATE })).status).toBe(201);
    const taken = await post({ name: 'ADMIN only', state: STATE });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('You already have a saved view named "ADMIN only"');
    const badLevel = await post({ name: 'Bad', state: { ...STATE, viewLevel: 'galaxy' } });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body.message).toMatch(/^state\.viewLevel /);
    const badSize = await post({ name: 'Bad', state: { ...STATE, pageSize: 7 } });
    expect(badSize.status).toBe(400);
    const extra = await post({ name: 'Bad', state: STATE, owner: 'circor' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/owner/);
    const noState = await post({ name: 'Bad' });
    expect(noState.status).toBe(400);

    const [first] = await list('admin');
    const emptyChange = await server.request<Failure>(
      'PUT',
      `/api/saved-views/${first!.id}`,
      {},
      { as: 'admin' },
    );
    expect(emptyChange.status).toBe(400);
    const renameToTaken = await server.request<Failure>(
      'PUT',
      `/api/saved-views/${first!.id}`,
      { name: (await list('admin'))[1]!.name.toUpperCase() },
      { as: 'admin' },
    );
    expect(renameToTaken.status).toBe(409);
    // Renaming a view to its own name in another case is allowed.
    const recase = await server.request(
      'PUT',
      `/api/saved-views/${first!.id}`,
      { name: first!.name.toUpperCase() },
      { as: 'admin' },
    );
    expect(recase.status).toBe(200);
    expect((await server.request('PUT', '/api/saved-views/abc', { name: 'x' }, { as: 'admin' })).status).toBe(
      400,
    );
    expect((await list('admin')).map((view) => view.name).filter((name) => name.startsWith('Bad'))).toEqual(
      [],
    );
  });
});
