import type { DemandRecord } from '@ps/domain';
import type { RequestOptions, TestServer } from './test-server';

/** The API's envelope (spec §7, `src/lib/envelope.ts`), as the tests read it. */
export type Ok<T> = { success: true; data: T; error: null };
/** A refused request: `details.field` names the input that was wrong, where there is one. */
export type Failure = {
  success: false;
  data: null;
  error: string;
  message: string;
  code: string;
  details?: { field?: string } & Record<string, unknown>;
};

/** Every demand record the caller may see (the list's largest page holds the test data set). */
export async function allRecords(server: TestServer, options?: RequestOptions): Promise<DemandRecord[]> {
  const { body } = await server.request<Ok<{ items: DemandRecord[] }>>(
    'GET',
    '/api/demand-planning/real-data?limit=5000',
    undefined,
    options,
  );
  return body.data.items;
}
