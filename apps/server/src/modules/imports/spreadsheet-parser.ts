import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportFileProblem, ImportValidation } from '@ps/domain';
import type { ParseJob } from './import-worker';
import type { ReadLimits } from './read-spreadsheet';

/**
 * Milliseconds the worker spent reading the file into cells, and applying the rules to them; the
 * largest heap it was seen to use meanwhile (MB).
 */
export type ParseSteps = { readMs: number; validateMs: number; parseHeapMb?: number };
type Parsed = { result: ImportValidation | ImportFileProblem; steps: ParseSteps };
type ParseAnswer = Parsed | { error: string };

/**
 * Parses uploads off the request thread, so a 100,000-row workbook never stalls other users'
 * requests. At most `concurrency` files parse at once, each in a worker thread that is kept for
 * the next file (starting one loads tsx and exceljs, about a second); later uploads wait their
 * turn. A worker that fails or dies is dropped and the next file gets a fresh one.
 */
export class SpreadsheetParser {
  private readonly idle: Worker[] = [];
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limits: ReadLimits,
    private readonly concurrency = 2,
  ) {}

  /**
   * Reads and validates a file in a worker. The file's memory moves to the worker when the Buffer
   * owns it whole (an upload does): `file` is then empty afterwards. A file that needs more than
   * the worker's heap budget is refused as a problem, not a failure.
   */
  async parse(fileName: string, file: Buffer, today: Date): Promise<Parsed> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    const worker = this.idle.pop() ?? startWorker();
    let healthy = false;
    try {
      let answer: ParseAnswer;
      try {
        answer = await this.run(worker, fileName, file, today);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY') throw error;
        return { result: { problem: OUT_OF_MEMORY }, steps: { readMs: 0, validateMs: 0 } };
      }
      healthy = true;
      if ('error' in answer) throw new Error(`The import parser failed: ${answer.error}`);
      return answer;
    } finally {
      if (healthy) this.idle.push(worker);
      else void worker.terminate();
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  private run(worker: Worker, fileName: string, file: Buffer, today: Date): Promise<ParseAnswer> {
    // An upload's buffer is its own (Buffer.concat of the parts) and moves to the worker without a
    // copy; a view into a shared or pooled buffer is copied first.
    const owned = file.byteOffset === 0 && file.byteLength === file.buffer.byteLength;
    const bytes = (
      owned ? file.buffer : file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)
    ) as ArrayBuffer;
    const job: ParseJob = { fileName, bytes, limits: this.limits, today: today.toISOString() };
    return new Promise<ParseAnswer>((resolve, reject) => {
      const onMessage = (answer: ParseAnswer) => {
        cleanUp();
        resolve(answer);
      };
      const onError = (error: Error) => {
        cleanUp();
        reject(error);
      };
      const onExit = (code: number) => onError(new Error(`The import parser stopped with code ${code}`));
      const cleanUp = () => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(job, [bytes]);
    });
  }
}

const OUT_OF_MEMORY =
  'The file needs more memory to read than one import may use: split it into smaller files';

/**
 * The parse worker's fixed heap budget (256 MB in all). Rows are validated as they are read and
 * only the import's columns of valid rows are kept, so the largest file within the limits stays
 * well inside it (docs/spreadsheet-import.md "Memory"); a smaller heap also makes V8 collect
 * sooner, which keeps the server's resident memory down.
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 224, maxYoungGenerationSizeMb: 32 };

/**
 * On Node 20 a worker does not inherit the tsx loader that `--import tsx` gave the main thread, so
 * the TypeScript entry is loaded through tsx's CommonJS register (as packages/forecast/src/pool.ts).
 */
function startWorker(): Worker {
  const entry = fileURLToPath(new URL('./import-worker.ts', import.meta.url));
  const tsxRegister = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsxRegister)}).register(); require(${JSON.stringify(entry)});`;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: WORKER_HEAP });
  // An idle parser must not keep the process alive at shutdown.
  worker.unref();
  return worker;
}
