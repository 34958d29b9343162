import { rollUp, type AggregatedRow, type GridPage } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { overlapTransactions } from './support/overlapping-transactions';
import { rowsDiffering } from './support/table-differences';
import { startTestServer, type TestServer } from './support/test-server';
import { importAndFollow } from './support/follow-import';

/**
 * The annotations digests per slice (migration 0033) and per business unit and week (0046) stay
 * equal to a rebuild from the records after every write that can change an annotation, or move one
 * between slices: a batch of comments and reason codes, an edit that takes away a slice's first
 * comment, a spread, an import, a publish, a product that changes family, a deleted product, a
 * record moved to another week, two transactions at once. And the family and business-unit rows
 * that read them show what rolling up the records shows.
 */
describe.each(backends)('annotations digest on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 24, weeks: 16 });
  });
  afterAll(async () => server?.close());

  /** Digest rows missing from, or extra to, a rebuild from the records (on one connection). */
  const differencesFromRebuild = () =>
    server.database.db.transaction().execute(async (trx) => {
      await sql`create temp table kept_digest on commit drop as select * from demand_annotation_digest`.execute(
        trx,
      );
      await sql`create temp table kept_unit_digest on commit drop as select * from demand_annotation_unit_digest`.execute(
        trx,
      );
      await sql`select annotation_digest_rebuild()`.execute(trx);
      await sql`select annotation_unit_digest_rebuild()`.execute(trx);
      const { rows } = await sql<{
        differences: number;
        kept: number;
        unitDifferences: number;
        unitKept: number;
      }>`
        select ${rowsDiffering('kept_digest', 'demand_annotation_digest')} as differences,
          (select count(*) from kept_digest)::int as kept,
          ${rowsDiffering('kept_unit_digest', 'demand_annotation_unit_digest')} as "unitDifferences",
          (select count(*) from kept_unit_digest)::int as "unitKept"`.execute(trx);
      return rows[0]!;
    });

  /** Every row of a roll-up view, in grid order. */
  const everyRow = async (viewLevel: string) =>
    (
      await server.request<Ok<GridPage>>(
        'GET',
        `/api/demand-planning/grid?viewLevel=${viewLevel}&drillDown=none&limit=500`,
      )
    ).body.data.rows as AggregatedRow[];

  const expectExact = async (step: string) => {
    const { differences, kept, unitDifferences, unitKept } = await differencesFromRebuild();
    expect(kept, step).toBeGreaterThan(0);
    expect(differences, step).toBe(0);
    expect(unitKept, step).toBeGreaterThan(0);
    expect(unitDifferences, step).toBe(0);
    const records = await allRecords(server);
    for (const viewLevel of ['category', 'business_unit'] as const)
      expect(await everyRow(viewLevel), `${step}: ${viewLevel}`).toEqual(rollUp(records, viewLevel, 'none'));
  };

  it('equals a rebuild from the records after every kind of write', async () => {
    await expectExact('seeded');
    const records = await allRecords(server);
    const db = server.database.db;

    // Comments and codes on records of several slices, one comment repeated within a family.
    const annotated = records.filter((_, i) => i % 7 === 0).slice(0, 30);
    const batch = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: annotated.map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        Comments: i % 3 === 0 ? 'Digest shared note' : `Digest note ${i}`,
        Reason_Code: i % 2 === 0 ? 'Market Trend' : 'Supply Chain',
      })),
    });
    expect(batch.status).toBe(200);
    await expectExact('batch');
    // The filter bar narrows the digest's slices as it narrows the records.
    const bu = annotated.find((r) => r.BU.trim() !== '')!.BU;
    const filtered = (
      await server.request<Ok<GridPage>>(
        'GET',
        `/api/demand-planning/grid?viewLevel=category&drillDown=none&limit=500&bu=${encodeURIComponent(bu)}`,
      )
    ).body.data.rows;
    expect(filtered).toEqual(
      rollUp(
        (await allRecords(server)).filter((r) => r.BU === bu),
        'category',
        'none',
      ),
    );

    // The first record of the grid that carries a comment loses it: the next one moves up.
    const first = [...annotated].sort(
      (a, b) => a.PID.localeCompare(b.PID) || a.Time_Series_sk.localeCompare(b.Time_Series_sk),
    )[0]!;
    const edit = await server.request(
      'PUT',
      `/api/demand-planning/real-data/${first.PID}/${first.Time_Series_sk}`,
      {
        Comments: '',
        Reason_Code: null,
      },
    );
    expect(edit.status).toBe(200);
    await expectExact('edit');

    const family = (await everyRow('category')).sort((a, b) => b.recordCount - a.recordCount)[0]!;
    const spread = await server.request('POST', '/api/demand-planning/spread', {
      viewLevel: 'category',
      drillDown: 'none',
      group: family.PF,
      field: 'SOP_Pln_Ovrd_Units',
      value: 5000,
    });
    expect(spread.status).toBe(200);
    await expectExact('spread');

    const form = new FormData();
    const product = records[3]!;
    form.append(
      'file',
      new Blob([
        `sku,category,businessUnit,overrideQ1,region\n${product.PID},${product.PF},${product.BU},1001,${product.Region}\n` +
          `DIGEST-NEW-1,${product.PF},${product.BU},500,${product.Region}\n`,
      ]),
      'plan.csv',
    );
    // Throws unless the import succeeded.
    const imported = await importAndFollow(server.baseUrl, (await server.tokensFor('admin')).id_token, form);
    expect(imported.status).toBe(202);
    await expectExact('import');

    expect((await server.request('POST', '/api/plan-cycles', {})).status).toBe(201);
    await expectExact('publish');

    // Statements no endpoint makes: a product that changes family, one deleted with its records,
    // a record annotated and then moved to another week.
    const moved = annotated[1]!;
    await sql`update products set pf = 'Digest Family' where pid = ${moved.PID}`.execute(db);
    await expectExact('product moved');
    await sql`delete from products where pid = ${annotated[2]!.PID}`.execute(db);
    await expectExact('product deleted');
    // (Annotated here, not by an edit: an edited record's last override holds on to its week.)
    const week = records[5]!.Time_Series_sk.replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
    await sql`update demand_records set comments = 'Digest moved note'
      where pid = ${records[5]!.PID} and week_start = ${week}::date`.execute(db);
    await expectExact('record annotated');
    await sql`update demand_records set week_start = date '2035-01-07'
      where pid = ${records[5]!.PID} and week_start = ${week}::date`.execute(db);
    await expectExact('record moved');
  });

  it.runIf(backend === 'postgres')(
    'stays exact when two transactions annotate the same slice at once',
    async () => {
      const db = server.database.db;
      const { rows } = await sql<{ pid: string; week_start: string }>`
        select r.pid, r.week_start::text as week_start from demand_records r join products p on p.pid = r.pid
        where (p.client_id, p.bu, p.pf, p.region) =
          (select client_id, bu, pf, region from products order by pid limit 1)
        order by r.pid, r.week_start limit 3`.execute(db);
      const [a, b, c] = rows as Array<{ pid: string; week_start: string }> as [
        { pid: string; week_start: string },
        { pid: string; week_start: string },
        { pid: string; week_start: string },
      ];
      const note = (record: { pid: string; week_start: string }, text: string) =>
        sql`update demand_records set comments = ${text}
          where pid = ${record.pid} and week_start = ${record.week_start}::date`;
      // The slice has digest rows already, which both rebuilds replace.
      await note(c, 'Concurrent earlier').execute(db);
      // The second rebuild of the slice waits for the first transaction, then includes its note.
      await overlapTransactions(
        db,
        (trx) => note(a, 'Concurrent first').execute(trx),
        (trx) => note(b, 'Concurrent second').execute(trx),
      );
      expect(await differencesFromRebuild()).toMatchObject({ differences: 0, unitDifferences: 0 });
      const { rows: notes } = await sql<{ value: string }>`
        select value from demand_annotation_digest where value like 'Concurrent %' order by value`.execute(
        db,
      );
      expect(notes.map((n) => n.value)).toEqual([
        'Concurrent earlier',
        'Concurrent first',
        'Concurrent second',
      ]);
    },
  );

  it.runIf(backend === 'postgres')(
    "keeps a business unit's week exact when two transactions annotate two of its slices at once",
    async () => {
      const db = server.database.db;
      // The first records, in one week, of two slices of one business unit.
      const { rows } = await sql<{ pid: string; week_start: string }>`
        with w as (select min(r.week_start) as week_start from demand_records r),
        u as (select client_id, bu from products group by 1, 2 having count(distinct (pf, region)) > 1 limit 1),
        s as (select distinct on (p.pf, p.region) p.pid from products p join u using (client_id, bu)
          order by p.pf, p.region, p.pid)
        select s.pid, w.week_start::text as week_start from s cross join w limit 2`.execute(db);
      const [a, b] = rows as [{ pid: string; week_start: string }, { pid: string; week_start: string }];
      expect(b).toBeDefined();
      const note = (record: { pid: string; week_start: string }, text: string) =>
        sql`update demand_records set comments = ${text}
          where pid = ${record.pid} and week_start = ${record.week_start}::date`;
      // The week already has a note of both slices, which both refreshes of the week replace.
      await note(a, 'Unit concurrent earlier').execute(db);
      await note(b, 'Unit concurrent earlier').execute(db);
      // Another slice: its own slice locks pass, the business unit's week waits for the first.
      await overlapTransactions(
        db,
        (trx) => note(a, 'Unit concurrent first').execute(trx),
        (trx) => note(b, 'Unit concurrent second').execute(trx),
      );
      expect(await differencesFromRebuild()).toMatchObject({ differences: 0, unitDifferences: 0 });
      const { rows: notes } = await sql<{ value: string }>`
        select value from demand_annotation_unit_digest where value like 'Unit concurrent %' order by value`.execute(
        db,
      );
      expect(notes.map((n) => n.value)).toEqual(['Unit concurrent first', 'Unit concurrent second']);
    },
  );
});
