import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadJob, WorkerMessage } from './data-load-worker';
import { FileProblem, type RowBatch } from './file-rows';

/**
 * Reads a loaded file on a worker thread, so parsing millions of rows never stalls other users'
 * requests: each batch is handed to `onBatch`, and the worker reads the next only once it
 * resolved (the database has taken the batch), so memory holds one batch at a time. A file-level
 * problem rejects with a FileProblem. The worker ends with the file.
 */
export function readOnWorker(
  job: ReadJob,
  onBatch: (batch: RowBatch) => Promise<void>,
): Promise<{ rows: number }> {
  const worker = startWorker();
  return new Promise<{ rows: number }>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, rows = 0) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve({ rows });
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'batch')
        onBatch(message).then(
          () => worker.postMessage('more'),
          (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
        );
      else if (message.kind === 'end') finish(null, message.rows);
      else if (message.kind === 'problem') finish(new FileProblem(message.message));
      else finish(new Error(`The file reader failed: ${message.message}`));
    });
    worker.on('error', (error) => finish(error));
    worker.on('exit', (code) => finish(new Error(`The file reader stopped with code ${code}`)));
    worker.postMessage(job);
  });
}

/** As the import parser: a worker gets tsx's register, which Node 20 does not pass on to it. */
function startWorker(): Worker {
  const entry = fileURLToPath(new URL('./data-load-worker.ts', import.meta.url));
  const tsxRegister = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsxRegister)}).register(); require(${JSON.stringify(entry)});`;
  return new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
}
