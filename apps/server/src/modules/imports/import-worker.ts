import { parentPort, type MessagePort } from 'node:worker_threads';
import { NEXT_ROWS, type ParseJob, type ParseMessage, type ParseSteps } from './parse-protocol';
import { readSpreadsheet } from './read-spreadsheet';

/*
 * This module is a worker's entry: it listens to its parent port as soon as it is loaded, so only
 * the worker's bootstrap may import it (the protocol lives in parse-protocol.ts).
 */

/** Rows per chunk: a few megabytes of notes at most. */
const CHUNK_ROWS = 5_000;

const port = parentPort;
let taken: (() => void) | undefined;

port?.on('message', (message: ParseJob | typeof NEXT_ROWS) => {
  if (message === NEXT_ROWS) {
    taken?.();
    return;
  }
  void parse(port, message);
});

async function parse(port: MessagePort, job: ParseJob): Promise<void> {
  const steps: ParseSteps = { readMs: 0, validateMs: 0 };
  try {
    const result = await readSpreadsheet(
      job.fileName,
      Buffer.from(job.bytes),
      job.limits,
      new Date(job.today),
      steps,
    );
    if ('validRows' in result) {
      const rows = result.validRows;
      result.validRows = [];
      for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
        const wait = new Promise<void>((resolve) => (taken = resolve));
        port.postMessage({
          kind: 'rows',
          rows: rows.slice(start, start + CHUNK_ROWS),
        } satisfies ParseMessage);
        // What was sent is a copy: drop this thread's rows as they go.
        rows.fill(undefined as never, start, start + CHUNK_ROWS);
        await wait;
      }
    }
    port.postMessage({ kind: 'done', result, steps } satisfies ParseMessage);
  } catch (error) {
    port.postMessage({
      kind: 'error',
      error: error instanceof Error ? error.message : String(error),
    } satisfies ParseMessage);
  } finally {
    taken = undefined;
  }
}
