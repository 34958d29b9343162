import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  addWeeks,
  DATA_LOAD_REFUSAL_LIMIT,
  toIsoDate,
  weekStartSunday,
  type DataLoadCounts,
  type DataLoadEntity,
  type DataLoadJob,
  type DataLoadRefusal,
} from '@ps/domain';
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseKind } from '../../db/database';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import {
  allowLongLoad,
  createStage,
  failInterruptedLoads,
  findLoad,
  finishLoad,
  insertRunningLoad,
  latestLoads,
  lockLoad,
  stageBatch,
  type DataLoadRow,
} from './data-loads.repository';
import { ENTITY_LOADERS, type LoadContext } from './entity-loaders';
import { readOnWorker } from './file-reader';
import { FileProblem } from './file-rows';

/** Rows the worker reads before the database takes them: one COPY each. */
const BATCH_ROWS = 50_000;
/** Weeks before the current one whose loaded actuals get a demand record (the grid's past year). */
export const RECORD_HISTORY_WEEKS = 52;
const LOG_LENGTH = 100;

/** One file to load: its bytes, or a stream of them (an upload, a dropped file). */
export type DataLoadRequest = {
  entity: DataLoadEntity;
  fileName: string;
  dryRun: boolean;
  user: AccessScope;
} & ({ bytes: Buffer } | { stream: Readable });

type Steps = Record<string, number>;
/** A load this process runs: what a poll answers while the database is busy with it. */
type OwnLoad = { row: DataLoadRow; processedRows: number; processedBytes: number; steps: Steps };

export const megabytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function toJob(row: DataLoadRow, own?: OwnLoad): DataLoadJob {
  return {
    id: Number(row.id),
    entity: row.entity as DataLoadEntity,
    fileName: row.file_name,
    dryRun: row.dry_run,
    status: row.status,
    loadedBy: row.loaded_by,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    durationMs: row.duration_ms,
    processedRows: own?.processedRows ?? row.processed_rows,
    processedBytes: own?.processedBytes ?? (row.status === 'running' ? 0 : Number(row.total_bytes)),
    totalBytes: Number(row.total_bytes),
    counts: (row.counts as DataLoadCounts | null) ?? null,
    refusals: (row.refusals as DataLoadRefusal[] | null) ?? [],
    error: row.error,
    steps: own?.steps ?? (row.steps as Steps | null) ?? {},
  };
}

/**
 * Admin bulk loads (docs/data-integration.md). A file is saved to a temporary file, read on a
 * worker thread batch by batch into a stage table (COPY on PostgreSQL), checked and counted with
 * set-based SQL, and, unless it is a dry run or a row was refused, written in the same transaction:
 * all of it or nothing. The load's row in the log is committed first, so it can be polled, and
 * records the outcome.
 */
export class DataLoadService {
  private readonly own = new Map<number, OwnLoad>();
  private readonly work = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: {
      databaseKind: DatabaseKind;
      maxBytes: number;
      log: { error: (obj: unknown, msg: string) => void; info: (msg: string) => void };
      /** Today, for the current week (a price in effect, the records' window). */
      today?: () => Date;
    },
  ) {}

  /**
   * Loads left running by a stopped server are marked failed (their transaction ended with it). On
   * a shared PostgreSQL a load another live process runs holds its lock and is left alone.
   */
  async recoverInterruptedLoads(): Promise<void> {
    const count = await failInterruptedLoads(this.db, {
      own: [...this.own.keys()],
      lockedOnly: this.options.databaseKind === 'postgres',
    });
    if (count > 0) this.options.log.info(`Marked ${count} interrupted data load(s) as failed`);
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.work]);
  }

  /**
   * Starts loading one file: answers the running load at once (`job`) and its end (`done`), which
   * never rejects: a refused or failed load ends with that status and its reason. Only admins load.
   */
  async load(request: DataLoadRequest): Promise<{ job: DataLoadJob; done: Promise<DataLoadJob> }> {
    if (!request.user.isAdmin) throw new AppError('FORBIDDEN', 'Only an admin can load data');
    if (!/\.(csv|xlsx)$/i.test(request.fileName))
      throw AppError.validation(
        /\.xls$/i.test(request.fileName)
          ? 'file: Excel 97-2003 workbooks (.xls) cannot be loaded: save it as .xlsx or .csv'
          : 'file: only .csv and .xlsx files can be loaded',
        'file',
      );
    const folder = await mkdtemp(join(tmpdir(), 'ps-data-load-'));
    const path = join(folder, 'upload');
    let bytes: number;
    try {
      bytes = await this.save(request, path);
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    const row = await insertRunningLoad(this.db, {
      entity: request.entity,
      fileName: request.fileName.slice(0, 255),
      dryRun: request.dryRun,
      by: request.user.userName,
      byId: request.user.userId,
      bytes,
    });
    const own: OwnLoad = { row, processedRows: 0, processedBytes: 0, steps: {} };
    const id = Number(row.id);
    this.own.set(id, own);
    const done = this.run(request, own, path)
      .catch(async (error: unknown) => {
        this.options.log.error({ err: error, loadId: id }, 'data load failed');
        return this.end(own, 'failed', null, [], error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        this.own.delete(id);
        this.work.delete(done);
        void rm(folder, { recursive: true, force: true });
      });
    this.work.add(done);
    return { job: toJob(row, own), done };
  }

  /** Writes the file to disk, counting its bytes against the limit. */
  private async save(request: DataLoadRequest, path: string): Promise<number> {
    const tooLarge = () =>
      AppError.validation(
        `file is larger than the ${megabytes(this.options.maxBytes)} data load limit`,
        'file',
      );
    if ('bytes' in request) {
      if (request.bytes.length > this.options.maxBytes) throw tooLarge();
      await writeFile(path, request.bytes);
      return request.bytes.length;
    }
    let bytes = 0;
    const maxBytes = this.options.maxBytes;
    await pipeline(
      request.stream,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          bytes += chunk.length;
          if (bytes > maxBytes) throw tooLarge();
          yield chunk;
        }
      },
      createWriteStream(path),
    );
    if ((request.stream as Readable & { truncated?: boolean }).truncated) throw tooLarge();
    return bytes;
  }

  private async run(request: DataLoadRequest, own: OwnLoad, path: string): Promise<DataLoadJob> {
    const { steps } = own;
    const id = Number(own.row.id);
    const now = (this.options.today ?? (() => new Date()))();
    const currentWeek = weekStartSunday(now);
    const loader = ENTITY_LOADERS[request.entity];
    const context: LoadContext = {
      by: request.user.userName,
      loadId: id,
      today: toIsoDate(now),
      currentWeek: toIsoDate(currentWeek),
      recordsFrom: toIsoDate(addWeeks(currentWeek, -RECORD_HISTORY_WEEKS)),
      asOf: now,
    };
    const started = performance.now();
    const mark = (name: string, since: number) => {
      steps[name] = Math.round((steps[name] ?? 0) + performance.now() - since);
    };
    let readRefused = 0;
    const readRefusals: DataLoadRefusal[] = [];
    class Refused extends Error {}
    const outcome = await this.db
      .transaction()
      .execute(async (trx) => {
        if (this.options.databaseKind === 'postgres') await lockLoad(trx, id);
        await allowLongLoad(trx);
        await createStage(trx, request.entity);
        const usesCopy = this.options.databaseKind === 'postgres';
        const { rows, keysDistinct } = await readOnWorker(
          { path, fileName: request.fileName, entity: request.entity, batchRows: BATCH_ROWS },
          async (batch) => {
            const staging = performance.now();
            await stageBatch(trx, request.entity, batch.copy, usesCopy);
            mark('stageMs', staging);
            readRefused += batch.refused;
            for (const refusal of batch.refusals)
              if (readRefusals.length < DATA_LOAD_REFUSAL_LIMIT) readRefusals.push(refusal);
            own.processedRows += batch.rows + batch.refused;
            own.processedBytes = batch.bytes;
          },
        );
        own.processedRows = rows;
        mark('readMs', started);
        const checking = performance.now();
        const checked = await loader.check(trx, { ...context, keysDistinct });
        mark('checkMs', checking);
        const refusals = [...readRefusals, ...checked.refusals]
          .sort((a, b) => a.row - b.row)
          .slice(0, DATA_LOAD_REFUSAL_LIMIT);
        const counts = { ...checked.counts, refused: checked.counts.refused + readRefused };
        if (counts.refused > 0 || request.dryRun) throw new Refused(JSON.stringify({ counts, refusals }));
        const writing = performance.now();
        await loader.apply(trx, context);
        mark('writeMs', writing);
        // Finished within its transaction: the row never shows 'running' without the lock held.
        return { finished: await this.finishRow(trx, own, 'succeeded', counts, refusals, null) };
      })
      .catch((error: unknown) => {
        // A dry run or a refused row ends the transaction without writing: the outcome rides on it.
        if (error instanceof Refused)
          return JSON.parse(error.message) as { counts: DataLoadCounts; refusals: DataLoadRefusal[] };
        if (error instanceof FileProblem) return { problem: error.message };
        throw error;
      });
    if ('finished' in outcome) return this.settle(own, outcome.finished);
    if ('problem' in outcome) return this.end(own, 'failed', null, [], outcome.problem);
    const status = outcome.counts.refused > 0 ? 'refused' : 'succeeded';
    return this.end(own, status, outcome.counts, outcome.refusals, null);
  }

  private async end(
    own: OwnLoad,
    status: 'succeeded' | 'refused' | 'failed',
    counts: DataLoadCounts | null,
    refusals: DataLoadRefusal[],
    error: string | null,
  ): Promise<DataLoadJob> {
    return this.settle(own, await this.finishRow(this.db, own, status, counts, refusals, error));
  }

  /** Writes the load's outcome row, in the load's own transaction when it succeeded. */
  private finishRow(
    db: Kysely<Database> | Transaction<Database>,
    own: OwnLoad,
    status: 'succeeded' | 'refused' | 'failed',
    counts: DataLoadCounts | null,
    refusals: DataLoadRefusal[],
    error: string | null,
  ): Promise<DataLoadRow> {
    return finishLoad(db, Number(own.row.id), {
      status,
      processedRows: own.processedRows,
      counts,
      refusals,
      error,
      steps: own.steps,
      durationMs: Math.max(0, Date.now() - new Date(own.row.started_at).getTime()),
    });
  }

  /**
   * What this process answers for the load from now on. Only once its row is committed: a poll that
   * read 'succeeded' earlier could read the data before the load's writes are visible.
   */
  private settle(own: OwnLoad, row: DataLoadRow): DataLoadJob {
    own.row = row;
    return toJob(row);
  }

  async job(user: AccessScope, id: number): Promise<DataLoadJob> {
    if (!user.isAdmin) throw new AppError('FORBIDDEN', 'Only an admin can see data loads');
    const own = this.own.get(id);
    if (own) return toJob(own.row, own);
    let row = await findLoad(this.db, id);
    if (!row) throw AppError.notFound(`Data load ${id} was not found`);
    if (row.status === 'running') {
      // Not this process's: its process may have died since, and then this read says so.
      await this.recoverInterruptedLoads();
      row = (await findLoad(this.db, id)) ?? row;
    }
    return toJob(row);
  }

  async log(user: AccessScope): Promise<DataLoadJob[]> {
    if (!user.isAdmin) throw new AppError('FORBIDDEN', 'Only an admin can see data loads');
    let rows = await latestLoads(this.db, LOG_LENGTH);
    if (rows.some((row) => row.status === 'running' && !this.own.has(Number(row.id)))) {
      await this.recoverInterruptedLoads();
      rows = await latestLoads(this.db, LOG_LENGTH);
    }
    return rows.map((row) => toJob(row, this.own.get(Number(row.id))));
  }
}
