import { DEMAND_RECORD_FIELDS, type DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateByUnnest } from '../src/db/bulk';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Page = { success: true; data: { items: DemandRecord[] } };

/** information_schema's name of each array type the catalogue casts to. */
const COLUMN_TYPE = {
  text: 'text',
  date: 'date',
  float8: 'double precision',
  numeric: 'numeric',
  int4: 'integer',
  timestamptz: 'timestamp with time zone',
} as const;

describe.each(backends)('the field catalogue against the migrated database on %s', (backend) => {
  let server: TestServer;
  const columnsOf = async (table: string) => {
    const result = await sql<{ column_name: string; data_type: string }>`
      select column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(server.database.db);
    return new Map(result.rows.map((r) => [r.column_name, r.data_type]));
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 3, weeks: 4 });
  });
  afterAll(async () => server?.close());

  it('names every demand_records column, with the type the migrations gave it', async () => {
    const columns = await columnsOf('demand_records');
    const catalogued = DEMAND_RECORD_FIELDS.filter((s) => s.table === 'demand_records');
    expect([...columns.keys()].sort()).toEqual(
      [...catalogued.map((s) => s.column), 'week_start', 'has_data'].sort(),
    );
    for (const spec of catalogued)
      expect(columns.get(spec.column), spec.field).toBe(COLUMN_TYPE[spec.sqlType]);
  });

  it('names only products columns that exist, with their types', async () => {
    const columns = await columnsOf('products');
    for (const spec of DEMAND_RECORD_FIELDS.filter((s) => s.table === 'products'))
      expect(columns.get(spec.column), spec.field).toBe(COLUMN_TYPE[spec.sqlType]);
  });

  it('is exactly the fields the API returns for a record', async () => {
    const { body } = await server.request<Page>('GET', '/api/demand-planning/real-data?limit=1');
    expect(Object.keys(body.data.items[0]!).sort()).toEqual(DEMAND_RECORD_FIELDS.map((s) => s.field).sort());
  });
});

describe.each(backends)('updateByUnnest on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 2, weeks: 3 });
  });
  afterAll(async () => server?.close());

  const read = async () =>
    server.database.db
      .selectFrom('demand_records')
      .select(['pid', 'week_start', 'comments', 'rev_pln_ovrd_percent', 'version', 'last_updated_by'])
      .orderBy('pid')
      .orderBy('week_start')
      .execute();

  it('sets each matched row its own values and the shared assignments, and leaves the others', async () => {
    const before = await read();
    const [first, second, untouched] = before;
    const count = await updateByUnnest(
      server.database.db,
      'demand_records',
      {
        keys: [
          { name: 'pid', type: 'text' },
          { name: 'week_start', type: 'date' },
        ],
        columns: [
          { name: 'comments', type: 'text' },
          { name: 'rev_pln_ovrd_percent', type: 'numeric' },
        ],
        also: { version: sql`t.version + 1`, last_updated_by: sql`${'bulk test'}` },
      },
      [
        {
          pid: first!.pid,
          week_start: first!.week_start,
          comments: 'one, "quoted"',
          rev_pln_ovrd_percent: 12.5,
        },
        { pid: second!.pid, week_start: second!.week_start, comments: null, rev_pln_ovrd_percent: null },
        // A key that matches no record is skipped, not inserted.
        { pid: 'NO-SUCH-PID', week_start: '2026-11-15', comments: 'x', rev_pln_ovrd_percent: 1 },
      ],
    );
    expect(count).toBe(2);
    const after = await read();
    expect(after[0]).toEqual({
      ...first,
      comments: 'one, "quoted"',
      rev_pln_ovrd_percent: 12.5,
      version: first!.version + 1,
      last_updated_by: 'bulk test',
    });
    expect(after[1]).toEqual({
      ...second,
      comments: null,
      rev_pln_ovrd_percent: null,
      version: second!.version + 1,
      last_updated_by: 'bulk test',
    });
    expect(after[2]).toEqual(untouched);
    expect(after).toHaveLength(before.length);
  });

  it('writes nothing for no rows', async () => {
    const before = await read();
    const count = await updateByUnnest(
      server.database.db,
      'demand_records',
      { keys: [{ name: 'pid', type: 'text' }], columns: [{ name: 'comments', type: 'text' }] },
      [],
    );
    expect(count).toBe(0);
    expect(await read()).toEqual(before);
  });
});
