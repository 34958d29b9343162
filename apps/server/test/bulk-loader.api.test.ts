import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBulkLoader } from '../src/db/bulk';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { backends, TEST_POSTGRES_URL } from './support/backends';

type Row = {
  pid: string;
  week_start: string | null;
  units: number | null;
  note: string | null;
  at: Date | null;
};

/** Text a COPY line would break on, and the values the seed writes. */
const ROWS: Row[] = [
  { pid: 'tab\there', week_start: '2026-01-04', units: 12.5, note: 'line\nbreak\r\nand \\N', at: null },
  { pid: 'back\\slash', week_start: null, units: null, note: null, at: new Date('2026-01-04T10:00:00Z') },
  { pid: 'plain', week_start: '2026-12-27', units: 0.30000000000000004, note: '', at: null },
];

/** The seed's bulk loader: COPY on PostgreSQL, an unnest insert on PGlite, the same rows either way. */
describe.each(backends)('bulk loader on %s', (backend) => {
  let database: DatabaseHandle;
  const schema = `bulk_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    if (backend === 'postgres') {
      const admin = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, poolSize: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin.db);
      await admin.close();
      database = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, schema, poolSize: 2 });
    } else {
      database = openDatabase({ kind: 'pglite' });
    }
    await sql`create table loaded (pid text, week_start date, units float8, note text, at timestamptz)`.execute(
      database.db,
    );
  });
  afterAll(async () => {
    if (backend === 'postgres') await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
    await database?.close();
  });

  const read = (db = database.db) =>
    sql<Row>`select pid, week_start, units, note, at from loaded order by pid`.execute(db);

  it("writes every value as given and only inside the caller's transaction", async () => {
    const columns = [
      { name: 'pid', type: 'text' },
      { name: 'week_start', type: 'date' },
      { name: 'units', type: 'float8' },
      { name: 'note', type: 'text' },
      { name: 'at', type: 'timestamptz' },
    ] as const;
    await expect(
      database.db.transaction().execute(async (trx) => {
        const loader = await openBulkLoader(trx);
        expect(loader.usesCopy).toBe(backend === 'postgres');
        // @ts-expect-error: a test table outside the schema's types
        await loader.load('loaded', columns, ROWS);
        expect((await read(trx)).rows).toHaveLength(3);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await read()).rows).toEqual([]);

    const loader = await openBulkLoader(database.db);
    // @ts-expect-error: a test table outside the schema's types
    await loader.load('loaded', columns, ROWS);
    const expected = [...ROWS].sort((a, b) => (a.pid < b.pid ? -1 : 1));
    expect((await read()).rows).toEqual(expected);
  });

  it('fails the load on a value the column refuses', async () => {
    const loader = await openBulkLoader(database.db);
    await expect(
      // @ts-expect-error: a test table outside the schema's types
      loader.load('loaded', [{ name: 'week_start', type: 'date' }], [{ week_start: 'not a date' }]),
    ).rejects.toThrow(/date/);
    // The connection is usable afterwards.
    expect((await read()).rows).toHaveLength(3);
  });
});
