import type { ImportRowOutcome } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

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
});
