import type { DataLoadJob } from '@ps/domain';
import type { Ok } from './api-shapes';
import type { TestServer } from './test-server';

/**
 * Posts a CSV to an admin data load and follows its background job to its end, as the Data page
 * does: the job as it ended (succeeded or failed; the caller asserts which).
 */
export async function loadDataFile(
  server: TestServer,
  entity: string,
  content: string,
): Promise<DataLoadJob> {
  const form = new FormData();
  form.append('file', new Blob([content]), `${entity}.csv`);
  const token = (await server.tokensFor('admin')).id_token;
  const response = await fetch(`${server.baseUrl}/api/data-loads/${entity}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  let job = ((await response.json()) as Ok<DataLoadJob>).data;
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 30));
    job = (await server.request<Ok<DataLoadJob>>('GET', `/api/data-loads/jobs/${job.id}`)).body.data;
  }
  return job;
}
