import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportFileProblem, ImportValidation } from '@ps/domain';
import type { ParseJob } from './import-worker';
import type { ReadLimits } from './read-spreadsheet';

type ParseAnswer = { result: ImportValidation | ImportFileProblem } | { error: string };

/**
 * Parses uploads off the request thread: each file is read by a worker thread of its own, so a
 * 100,000-row workbook never stalls other users' requests. At most `concurrency` parse at once;
 * later uploads wait their turn (each holds up to the upload limit in memory).
 */
export class SpreadsheetParser {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limits: ReadLimits,
    private readonly concurrency = 2,
  ) {}

  async parse(fileName: string, file: Buffer, today: Date): Promise<ImportValidation | ImportFileProblem> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await this.parseInWorker(fileName, file, today);
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  private async parseInWorker(
    fileName: string,
    file: Buffer,
    today: Date,
  ): Promise<ImportValidation | ImportFileProblem> {
    const worker = startWorker();
    try {
      const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
      const job: ParseJob = { fileName, bytes, limits: this.limits, today: today.toISOString() };
      const answer = await new Promise<ParseAnswer>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`The import parser stopped with code ${code}`)));
        worker.postMessage(job, [bytes]);
      });
      if ('error' in answer) throw new Error(`The import parser failed: ${answer.error}`);
      return answer.result;
    } finally {
      await worker.terminate();
    }
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
  return new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
}
