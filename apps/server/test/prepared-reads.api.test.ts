import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlainRead, preparedReadsOn } from '../src/db/prepared-reads';
import { backends, TEST_POSTGRES_URL } from './support/backends';

describe('isPlainRead', () => {
  it('takes selects and withs that neither write nor lock', () => {
    expect(isPlainRead('select 1')).toBe(true);
    expect(isPlainRead('\n  with t as (select 1) select * from t')).toBe(true);
    expect(
      isPlainRead('select r.last_updated_at, l.pid is not null as locked from demand_record_locks l'),
    ).toBe(true);
    expect(isPlainRead('update demand_records set version = version + 1')).toBe(false);
    expect(isPlainRead('with d as (delete from t returning *) select * from d')).toBe(false);
    expect(isPlainRead('select * from demand_records where pid = $1 for update')).toBe(false);
    expect(isPlainRead('select * from demand_records for no key update')).toBe(false);
    expect(isPlainRead('insert into t select 1')).toBe(false);
  });
});

/** The statements this connection has prepared (PostgreSQL's own list). */
const preparedOn = async (client: pg.PoolClient): Promise<string[]> =>
  (
    await client.query<{ statement: string }>(
      'select statement from pg_prepared_statements order by statement',
    )
  ).rows.map((row) => row.statement);

describe.skipIf(!backends.includes('postgres'))('prepared reads on PostgreSQL', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 });
    preparedReadsOn(pool, { perConnection: 2, seenBeforePreparing: 2 });
  });
  afterAll(() => pool.end());
  /** Runs `work` on the pool's one connection and gives it back. */
  const onClient = async (work: (client: pg.PoolClient) => Promise<void>): Promise<void> => {
    const client = await pool.connect();
    try {
      await work(client);
    } finally {
      client.release();
    }
  };

  it('prepares a read the second time it runs, reuses it, and keeps at most the cap per connection', () =>
    onClient(async (client) => {
      const read = (n: number) => client.query(`select $1::int + ${n} as v`, [1]);
      expect((await read(1)).rows).toEqual([{ v: 2 }]);
      expect(await preparedOn(client)).toEqual([]);
      expect((await read(1)).rows).toEqual([{ v: 2 }]);
      expect(await preparedOn(client)).toEqual(['select $1::int + 1 as v']);
      // Bound again with a new value: the prepared statement answers.
      expect((await client.query('select $1::int + 1 as v', [41])).rows).toEqual([{ v: 42 }]);
      expect(await preparedOn(client)).toEqual(['select $1::int + 1 as v']);

      await read(2);
      await read(2);
      await read(1); // the least recently used is now `+ 2`
      await read(3);
      await read(3);
      expect(await preparedOn(client)).toEqual(['select $1::int + 1 as v', 'select $1::int + 3 as v']);
      // The deallocated text runs again, prepared anew under another name.
      expect((await read(2)).rows).toEqual([{ v: 3 }]);
      expect((await read(2)).rows).toEqual([{ v: 3 }]);
      expect(await preparedOn(client)).toEqual(['select $1::int + 2 as v', 'select $1::int + 3 as v']);
    }));

  it('plans every execution for its parameters: no generic plan is ever kept', () =>
    onClient(async (client) => {
      // Left to PostgreSQL's default plan cache mode, this statement gets a generic plan from its
      // sixth execution on.
      const text = 'select $1::int + $2::int as v';
      for (let i = 0; i < 10; i++) expect((await client.query(text, [10, i])).rows).toEqual([{ v: 10 + i }]);
      const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
        'select generic_plans, custom_plans from pg_prepared_statements where statement = $1',
        [text],
      );
      expect(rows.map((row) => [Number(row.generic_plans), Number(row.custom_plans)])).toEqual([[0, 9]]);
    }));

  it('never prepares writes, locking reads or calls without a values array', () =>
    onClient(async (client) => {
      await client.query('create temporary table prepared_reads_probe (n int)');
      for (let i = 0; i < 3; i++) {
        await client.query('insert into prepared_reads_probe values ($1)', [i]);
        await client.query('select n from prepared_reads_probe where n = $1 for update', [i]);
        await client.query('select count(*) from prepared_reads_probe');
      }
      expect((await preparedOn(client)).filter((s) => s.includes('prepared_reads_probe'))).toEqual([]);
    }));

  it('runs a read that fails to parse again and again with its own error', () =>
    onClient(async (client) => {
      const text = 'select $1::int + no_such_column as v';
      for (let i = 0; i < 3; i++) await expect(client.query(text, [1])).rejects.toThrow(/no_such_column/);
      expect((await client.query('select $1::int * 2 as v', [2])).rows).toEqual([{ v: 4 }]);
    }));
});
