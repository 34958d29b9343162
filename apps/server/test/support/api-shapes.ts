import type { DemandRecord } from '@ps/domain';
import type { RequestOptions, TestServer } from './test-server';

/** The API's envelope (spec §7), as the tests read it. */
export type Ok<T> = { success: true; data: T };
export type Failure = { success: false; error: string; code: string };

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
