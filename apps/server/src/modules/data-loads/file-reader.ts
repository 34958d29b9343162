import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadJob, WorkerMessage } from './data-load-worker';
import { FileProblem, type FileRead, type RowBatch } from './file-rows';

/**
 * Readers kept between loads: starting one compiles the reader and the domain with tsx, which
 * would otherwise cost every load, however small its file. A reader that failed is dropped.
 */
const idle: Worker[] = [];
const KEPT_READERS = 2;

/**
 * Reads a loaded file on a worker thread, so parsing millions of rows never stalls other users'
 * requests: each batch is handed to `onBatch` in order. The worker reads the next batch while the
 * database takes the current one, and no further until it did, so memory holds at most two
 * batches. A file-level problem rejects with a FileProblem.
 */
export function readOnWorker(job: ReadJob, onBatch: (batch: RowBatch) => Promise<void>): Promise<FileRead> {
  const worker = idle.pop() ?? startWorker();
  return new Promise<FileRead>((resolve, reject) => {
    let settled = false;
    let queue = Promise.resolve();
    /** Batches received and not yet taken by the database. */
    let pending = 0;
    let held = false;
    const finish = (
      error: Error | null,
      read: FileRead = { rows: 0, keysDistinct: false },
      healthy = false,
    ) => {
      if (settled) return;
      settled = true;
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (healthy && idle.length < KEPT_READERS) idle.push(worker);
      else void worker.terminate();
      if (error) reject(error);
      else resolve(read);
    };
    const fail = (error: unknown) => finish(error instanceof Error ? error : new Error(String(error)));
    const onMessage = (message: WorkerMessage) => {
      if (settled) return;
      if (message.kind === 'batch') {
        pending += 1;
        if (pending < 2) worker.postMessage('more');
        else held = true;
        queue = queue.then(async () => {
          if (settled) return;
          await onBatch(message);
          pending -= 1;
          if (held) {
            held = false;
            worker.postMessage('more');
          }
        });
        queue.catch(fail);
      } else if (message.kind === 'end')
        queue.then(
          () => finish(null, { rows: message.rows, keysDistinct: message.keysDistinct }, true),
          fail,
        );
      else if (message.kind === 'problem')
        queue.then(() => finish(new FileProblem(message.message), undefined, true), fail);
      else finish(new Error(`The file reader failed: ${message.message}`));
    };
    const onError = (error: Error) => finish(error);
    const onExit = (code: number) => finish(new Error(`The file reader stopped with code ${code}`));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job);
  });
}

/** As the import parser: a worker gets tsx's register, which Node 20 does not pass on to it. */
function startWorker(): Worker {
  const entry = fileURLToPath(new URL('./data-load-worker.ts', import.meta.url));
  const tsxRegister = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsxRegister)}).register(); require(${JSON.stringify(entry)});`;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
  // A kept reader never holds the process open.
  worker.unref();
  return worker;
}
