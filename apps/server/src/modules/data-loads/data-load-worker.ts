import { parentPort } from 'node:worker_threads';
import type { DataLoadEntity } from '@ps/domain';
import { FileProblem, readFileRows, type FileRead, type RowBatch } from './file-rows';

/** What the loader asks the worker to read. */
export type ReadJob = { path: string; fileName: string; entity: DataLoadEntity; batchRows: number };

/** What the worker answers: a batch (then it waits for 'more'), the end, or why it stopped. */
export type WorkerMessage =
  | ({ kind: 'batch' } & RowBatch)
  | ({ kind: 'end' } & FileRead)
  | { kind: 'problem'; message: string }
  | { kind: 'error'; message: string };

const port = parentPort!;
let resume: (() => void) | null = null;

port.on('message', (message: ReadJob | 'more') => {
  if (message === 'more') {
    resume?.();
    resume = null;
    return;
  }
  const post = (answer: WorkerMessage) => port.postMessage(answer);
  readFileRows(message, (batch) => {
    const waiting = new Promise<void>((resolve) => (resume = resolve));
    post({ kind: 'batch', ...batch });
    return waiting;
  }).then(
    (read) => post({ kind: 'end', ...read }),
    (error: unknown) =>
      post(
        error instanceof FileProblem
          ? { kind: 'problem', message: error.message }
          : { kind: 'error', message: error instanceof Error ? error.message : String(error) },
      ),
  );
});
