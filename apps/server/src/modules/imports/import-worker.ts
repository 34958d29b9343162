import { parentPort, type MessagePort } from 'node:worker_threads';
import type { ImportRow } from '@ps/domain';
import { readSpreadsheet, type ReadLimits } from './read-spreadsheet';
import type { ParseSteps } from './spreadsheet-parser';

/** A parse job: the file travels as a transferred ArrayBuffer, not a copy. */
export type ParseJob = { fileName: string; bytes: ArrayBuffer; limits: ReadLimits; today: string };

/**
 * What the worker answers, in order: the valid rows in chunks (each sent once the parser has taken
 * the previous one, so neither thread holds the whole file's rows twice), then the validation with
 * its rows left out, or the error that stopped it.
 */
export type ParseMessage =
  | { kind: 'rows'; rows: ImportRow[] }
  | { kind: 'done'; result: unknown; steps: ParseSteps }
  | { kind: 'error'; error: string };

/** The parser's answer to a chunk of rows: send the next. */
export const NEXT_ROWS = 'next-rows';
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
