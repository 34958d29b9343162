import { parentPort } from 'node:worker_threads';
import { readSpreadsheet, type ReadLimits } from './read-spreadsheet';
import type { ParseSteps } from './spreadsheet-parser';

/** A parse job: the file travels as a transferred ArrayBuffer, not a copy. */
export type ParseJob = { fileName: string; bytes: ArrayBuffer; limits: ReadLimits; today: string };

parentPort?.on('message', (job: ParseJob) => {
  const steps: ParseSteps = { readMs: 0, validateMs: 0 };
  readSpreadsheet(job.fileName, Buffer.from(job.bytes), job.limits, new Date(job.today), steps).then(
    (result) => parentPort?.postMessage({ result, steps }),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
