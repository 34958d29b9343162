import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportFileProblem, ImportRow, ImportValidation } from '@ps/domain';
import { NEXT_ROWS, type ParseJob, type ParseMessage } from './import-worker';
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
    let keep = true;
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
      keep = (answer.steps.parseHeapMb ?? 0) <= KEEP_WORKER_HEAP_MB;
      return answer;
    } finally {
      if (healthy && keep) this.idle.push(worker);
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
    const rows: ImportRow[] = [];
    const texts = new TextInterner();
    return new Promise<ParseAnswer>((resolve, reject) => {
      const onMessage = (message: ParseMessage) => {
        if (message.kind === 'rows') {
          for (const row of message.rows) rows.push(texts.internRow(row));
          worker.postMessage(NEXT_ROWS);
          return;
        }
        cleanUp();
        if (message.kind === 'error') {
          resolve({ error: message.error });
          return;
        }
        const result = message.result as Parsed['result'];
        if ('validRows' in result) result.validRows = rows;
        resolve({ result, steps: message.steps });
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
 * The texts a file repeats on every row (category, business unit, region, site, planner, reason,
 * date), kept once: each row arrives from the worker with its own copies.
 */
class TextInterner {
  private readonly known = new Map<string, string>();
  private text<T extends string | undefined>(value: T): T {
    if (value === undefined) return value;
    const kept = this.known.get(value);
    if (kept !== undefined) return kept as T;
    this.known.set(value, value);
    return value;
  }
  internRow(row: ImportRow): ImportRow {
    row.category = this.text(row.category);
    row.businessUnit = this.text(row.businessUnit);
    row.region = this.text(row.region);
    row.site = this.text(row.site);
    row.plannerName = this.text(row.plannerName);
    row.reasonCode = this.text(row.reasonCode);
    row.lastModified = this.text(row.lastModified);
    return row;
  }
}

/**
 * A worker that needed more heap than this for its file is stopped rather than kept: an idle
 * worker never collects, so it would hold that memory until the next file.
 */
const KEEP_WORKER_HEAP_MB = 64;

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
