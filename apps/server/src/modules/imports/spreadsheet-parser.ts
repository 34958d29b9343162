import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportFileProblem, ImportValidation } from '@ps/domain';
import type { ParseJob } from './import-worker';
import type { ReadLimits } from './read-spreadsheet';

/** Milliseconds the worker spent reading the file into cells, and applying the rules to them. */
export type ParseSteps = { readMs: number; validateMs: number };
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

  async parse(fileName: string, file: Buffer, today: Date): Promise<Parsed> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    const worker = this.idle.pop() ?? startWorker();
    let healthy = false;
    try {
      const answer = await this.run(worker, fileName, file, today);
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
    const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
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

/**
 * On Node 20 a worker does not inherit the tsx loader that `--import tsx` gave the main thread, so
 * the TypeScript entry is loaded through tsx's CommonJS register (as packages/forecast/src/pool.ts).
 */
function startWorker(): Worker {
  const entry = fileURLToPath(new URL('./import-worker.ts', import.meta.url));
  const tsxRegister = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsxRegister)}).register(); require(${JSON.stringify(entry)});`;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
  // An idle parser must not keep the process alive at shutdown.
  worker.unref();
  return worker;
}
