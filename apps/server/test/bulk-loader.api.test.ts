import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertByUnnest, openBulkLoader, updateByUnnest } from '../src/db/bulk';
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

  it('unnest writes carry every value through their array literals as given', async () => {
    await sql`create table unnested (id int4, label text, amount numeric, ratio float8, day date, at timestamptz)`.execute(
      database.db,
    );
    const tricky = [
      'a "quoted" word',
      'back\\slash \\"',
      '{braces},commas',
      'NULL',
      '',
      'tab\tand\nline',
      'ünï 😀',
    ];
    const rows = tricky.map((label, i) => ({
      id: i,
      label,
      amount: [12.5, -0.01, 1e21, 0, 123456789.1234, null, 7][i]!,
      ratio: [0.30000000000000004, 1e-7, -2.5e300, null, 5, 6, 7][i]!,
      day: i % 2 === 0 ? '2026-01-04' : null,
      at: i === 1 ? new Date('2026-01-04T10:00:00.123Z') : null,
    }));
    const columns = [
      { name: 'id', type: 'int4' },
      { name: 'label', type: 'text' },
      { name: 'amount', type: 'numeric' },
      { name: 'ratio', type: 'float8' },
      { name: 'day', type: 'date' },
      { name: 'at', type: 'timestamptz' },
    ] as const;
    // @ts-expect-error: a test table outside the schema's types
    await insertByUnnest(database.db, 'unnested', columns, rows);
    const readBack = () =>
      sql<(typeof rows)[number]>`select id, label, amount::float8 as amount, ratio,
          to_char(day, 'YYYY-MM-DD') as day, at from unnested order by id`.execute(database.db);
    expect((await readBack()).rows).toEqual(rows);

    const relabelled = rows.map((row) => ({ ...row, label: `${row.label}\\"}` }));
    // @ts-expect-error: a test table outside the schema's types
    await updateByUnnest(database.db, 'unnested', { keys: [columns[0]], columns: [columns[1]] }, relabelled);
    expect((await readBack()).rows).toEqual(relabelled);
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
