import type { ImportJob, ImportOutcome } from '@ps/domain';

/**
 * Posts a multipart import and follows the background job to its end, as the dialog does:
 * the upload's status, and the outcome once it succeeded (a failed import throws its reason).
 */
export async function importAndFollow(
  baseUrl: string,
  token: string,
  form: FormData,
): Promise<{ status: number; outcome: ImportOutcome }> {
  const headers = { authorization: `Bearer ${token}` };
  const started = await fetch(`${baseUrl}/api/demand-planning-items/import`, {
    method: 'POST',
    headers,
    body: form,
  });
  let job = ((await started.json()) as { data: ImportJob }).data;
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const polled = await fetch(`${baseUrl}/api/demand-planning-items/import/${job.id}`, { headers });
    job = ((await polled.json()) as { data: ImportJob }).data;
  }
  if (job.status !== 'succeeded' || !job.outcome) throw new Error(`import failed: ${job.error}`);
  return { status: started.status, outcome: job.outcome };
}
