import type { ImportJob, ImportRowOutcome } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

type Product = { pid: string; client_id: string; pf: string; bu: string };

/** POST /api/demand-planning-items and the file import, for SKUs the caller owns, may not use, or that are unknown. */
describe.each(backends)('import item and SKU ownership on %s', (backend) => {
  let server: TestServer;
  let internal: Product;
  let circor: Product;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 10, weeks: 8 });
    const products = await server.database.db
      .selectFrom('products')
      .select(['pid', 'client_id', 'pf', 'bu'])
      .orderBy('pid')
      .execute();
    internal = products.find((p) => p.client_id === 'internal')!;
    circor = products.find((p) => p.client_id === 'circor')!;
  });
  afterAll(async () => server?.close());

  it('answers an item with a known SKU and nothing to change as unchanged, not 500', async () => {
    for (const [product, as] of [
      [internal, 'admin'],
      [circor, 'circor'],
    ] as const) {
      const answer = await server.request<Ok<ImportRowOutcome>>(
        'POST',
        '/api/demand-planning-items',
        { sku: product.pid, category: product.pf, businessUnit: product.bu },
        { as },
      );
      expect(answer).toMatchObject({
        status: 201,
        body: { data: { sku: product.pid, status: 'unchanged', changes: [], warnings: [] } },
      });
    }
  });
  const upload = async (path: string, csv: string, as: Caller) => {
    const form = new FormData();
    form.append('file', new Blob([csv]), 'plan.csv');
    const token = (await server.tokensFor(as === 'anonymous' ? 'admin' : as)).id_token;
    const response = await fetch(`${server.baseUrl}/api/demand-planning-items${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: await response.json() };
  };
  /** A file's import followed to its end: the outcome without its import id. */
  const importFile = async (csv: string, as: Caller) => {
    const started = await upload('/import', csv, as);
    let job = (started.body as Ok<ImportJob>).data;
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (
        await server.request<Ok<ImportJob>>('GET', `/api/demand-planning-items/import/${job.id}`, undefined, {
          as,
        })
      ).body.data;
    }
    const { importId: _id, ...outcome } = job.outcome!;
    return { status: job.status, outcome };
  };
  /** Every table an import writes. */
  const checksum = async (): Promise<string> => {
    const parts: string[] = [];
    for (const table of ['products', 'product_details', 'demand_records', 'audit_log', 'product_audit_log']) {
      const { rows } = await sql<{ sum: string | null }>`
        select md5(string_agg(t::text, '|' order by t::text)) as sum from ${sql.table(table)} t`.execute(
        server.database.db,
      );
      parts.push(`${table}:${rows[0]?.sum ?? 'empty'}`);
    }
    return parts.join(',');
  };

  it("answers a customer for another client's SKU word for word as for an unknown one: preview, file and item", async () => {
    const unknownSku = 'NO-SUCH-SKU';
    const rowOf = (sku: string) => `sku,category,bu,override q1,planner\n${sku},Valves,Flow,40,Ann\n`;
    // The unknown SKU's answer, with the foreign SKU written in its place.
    const asForeign = (answer: unknown) =>
      JSON.parse(JSON.stringify(answer).replaceAll(unknownSku, internal.pid)) as unknown;
    const before = await checksum();

    const foreignPreview = await upload('/import/preview', rowOf(internal.pid), 'circor');
    const unknownPreview = await upload('/import/preview', rowOf(unknownSku), 'circor');
    expect(foreignPreview).toMatchObject({
      status: 200,
      body: {
        data: {
          validRowCount: 0,
          duplicates: [],
          errors: [
            {
              row: 2,
              field: 'sku',
              message: `Failed to import ${internal.pid}: the SKU is not one of your products; new products are created by an admin`,
            },
          ],
        },
      },
    });
    expect(asForeign(unknownPreview)).toEqual(foreignPreview);

    const foreignFile = await importFile(rowOf(internal.pid), 'circor');
    const unknownFile = await importFile(rowOf(unknownSku), 'circor');
    expect(foreignFile).toMatchObject({ status: 'succeeded', outcome: { imported: 0, failed: 1 } });
    expect(asForeign(unknownFile)).toEqual(foreignFile);

    const item = (sku: string) =>
      server.request<Failure>(
        'POST',
        '/api/demand-planning-items',
        { sku, category: 'Valves', businessUnit: 'Flow', overrideQ1: 40 },
        { as: 'circor' },
      );
    const foreignItem = await item(internal.pid);
    const unknownItem = await item(unknownSku);
    expect(foreignItem).toMatchObject({
      status: 404,
      body: {
        code: 'NOT_FOUND',
        message: `Failed to import ${internal.pid}: the SKU is not one of your products; new products are created by an admin`,
      },
    });
    expect(asForeign(unknownItem)).toEqual(foreignItem);
    // Nothing was written: not the other client's product, and no new one.
    expect(await checksum()).toBe(before);
  });

  it("tells an admin in one client's context who owns a SKU, and still creates an admin's new SKU", async () => {
    const inCircor = await server.request<Failure>(
      'POST',
      '/api/demand-planning-items?clientContext=circor',
      { sku: internal.pid, category: 'Valves', businessUnit: 'Flow' },
    );
    expect(inCircor).toMatchObject({
      status: 409,
      body: {
        message: `Failed to import ${internal.pid}: the SKU belongs to client internal, not to the client in context`,
      },
    });
    const created = await server.request<Ok<ImportRowOutcome>>('POST', '/api/demand-planning-items', {
      sku: 'ADMIN-NEW-1',
      category: 'Valves',
      businessUnit: 'Flow',
    });
    expect(created).toMatchObject({ status: 201, body: { data: { status: 'created' } } });
  });
});
