import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import {
  CsvRowReader,
  DATA_LOAD_LAYOUTS,
  isBlankRow,
  mapLayoutHeaders,
  readLayoutRow,
  type Cell,
  type DataLoadEntity,
  type DataLoadRefusal,
  type LayoutMapping,
  type LayoutRow,
} from '@ps/domain';
import { xlsxSheets, zipProblem } from '../imports';
import { STAGE_COLUMNS } from './stage-columns';

/** A problem with the whole file: nothing of it is loaded. */
export class FileProblem extends Error {}

/** What a batch of rows carries to the loader: COPY text lines of the stage table, and refusals. */
export type RowBatch = {
  copy: string;
  rows: number;
  refusals: DataLoadRefusal[];
  refused: number;
  bytes: number;
};

const XLS_MESSAGE =
  'Excel 97-2003 workbooks (.xls) cannot be loaded: open the file in Excel and save it as .xlsx or .csv';
/** An .xlsx may unpack to this many times its size (text XML compresses about 10:1), at most 1 GB. */
const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
const READ_CHUNK = 1024 * 1024;

/**
 * What reading a file found: its data rows, and for sales history whether every row read is a
 * week (no days) with a key (PID and week) of its own, which the rows show by coming in key order,
 * by PID then week or by week then PID, as exports write them. Such a file needs no grouping.
 */
export type FileRead = { rows: number; keysDistinct: boolean };

/** COPY's text format: a backslash, tab, newline or carriage return inside a value is escaped. */
function copyValue(value: LayoutRow[string]): string {
  if (value === null || value === undefined) return '\\N';
  // A number or a boolean is written as such: no character of it needs escaping.
  if (typeof value !== 'string') return String(value);
  const text = value;
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!)
    : text;
}

/**
 * Reads a file of one entity's layout, batch by batch: each batch is handed to `send`, which
 * resolves when the loader is ready for the next one, so only one batch is ever in memory beside
 * the reader's chunk. A CSV is streamed; an .xlsx is read whole (a workbook cannot be read in
 * pieces), its size bounded by the upload limit and its unpacked size checked before inflating.
 */
export async function readFileRows(
  job: { path: string; fileName: string; entity: DataLoadEntity; batchRows: number },
  send: (batch: RowBatch) => Promise<void>,
): Promise<FileRead> {
  const layout = DATA_LOAD_LAYOUTS[job.entity];
  const columns = STAGE_COLUMNS[job.entity];
  const extension = /\.([a-z]+)$/i.exec(job.fileName)?.[1]?.toLowerCase();
  if (extension === 'xls') throw new FileProblem(XLS_MESSAGE);
  if (extension !== 'csv' && extension !== 'xlsx')
    throw new FileProblem('Only .csv and .xlsx files can be loaded');

  // Whether the history rows so far came in ascending key order, by PID then week, or by week then PID.
  let byPid = job.entity === 'sales-history';
  let byWeek = byPid;
  let lastPid = '';
  let lastWeek = '';
  let mapping: LayoutMapping | null = null;
  let rowNumber = 0;
  let dataRows = 0;
  let bytes = 0;
  let batch: RowBatch = { copy: '', rows: 0, refusals: [], refused: 0, bytes: 0 };
  const flush = async () => {
    batch.bytes = bytes;
    await send(batch);
    batch = { copy: '', rows: 0, refusals: [], refused: 0, bytes: 0 };
  };
  const take = async (cells: readonly Cell[]) => {
    rowNumber += 1;
    if (isBlankRow(cells)) return;
    if (!mapping) {
      const mapped = mapLayoutHeaders(
        layout,
        cells.map((cell) => (cell === null ? '' : String(cell))),
      );
      if ('problem' in mapped) throw new FileProblem(mapped.problem);
      mapping = mapped.mapping;
      return;
    }
    dataRows += 1;
    const read = readLayoutRow(layout, mapping, cells, rowNumber);
    if ('refusal' in read) {
      batch.refused += 1;
      if (batch.refusals.length < 500) batch.refusals.push(read.refusal);
    } else {
      const values = read.values;
      values.rowNo = rowNumber;
      if (byPid || byWeek) {
        const pid = values.pid as string;
        const week = values.week as string;
        if (values.isDay) byPid = byWeek = false;
        if (byPid && !(pid > lastPid || (pid === lastPid && week > lastWeek))) byPid = false;
        if (byWeek && !(week > lastWeek || (week === lastWeek && pid > lastPid))) byWeek = false;
        lastPid = pid;
        lastWeek = week;
      }
      // One string built per row, not an array of its values joined (the reader's garbage).
      let line = copyValue(values[columns[0]!.key] ?? null);
      for (let c = 1; c < columns.length; c++) line += `\t${copyValue(values[columns[c]!.key] ?? null)}`;
      batch.copy += `${line}\n`;
      batch.rows += 1;
    }
    if (batch.rows + batch.refused >= job.batchRows) await flush();
  };

  if (extension === 'xlsx') {
    const buffer = await readWhole(job.path);
    bytes = buffer.length;
    if (buffer.length < 4 || buffer.readUInt32LE(0) !== 0x04034b50)
      throw new FileProblem(
        'The file is not an Excel workbook: its contents do not match its .xlsx extension',
      );
    const parts = new Map<string, Buffer>();
    const problem = zipProblem(buffer, Math.min(MAX_UNPACKED_BYTES, buffer.length * 100), parts);
    if (problem) throw new FileProblem(problem);
    const sheets = xlsxSheets(parts);
    if (sheets.length === 0)
      throw new FileProblem('The file is not a valid .xlsx workbook: Excel could not read its contents');
    for (const cells of sheets[0]!.rows()) await take(cells);
  } else {
    const encoding = (await isUtf8(job.path)) ? 'utf-8' : 'windows-1252';
    const decoder = new TextDecoder(encoding);
    const reader = new CsvRowReader();
    for await (const chunk of createReadStream(job.path, { highWaterMark: READ_CHUNK })) {
      const buffer = chunk as Buffer;
      if (bytes === 0 && buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50)
        throw new FileProblem(
          'The file is not a text CSV file: its contents do not match its .csv extension',
        );
      if (buffer.includes(0)) throw new FileProblem('The file is not a text CSV file: it holds binary data');
      bytes += buffer.length;
      for (const cells of reader.push(decoder.decode(buffer, { stream: true }))) await take(cells);
    }
    for (const cells of reader.push(decoder.decode())) await take(cells);
    for (const cells of reader.end()) await take(cells);
  }
  if (!mapping) throw new FileProblem('The file appears to be empty: it has no header row');
  await flush();
  return { rows: dataRows, keysDistinct: byPid || byWeek };
}

async function readWhole(path: string): Promise<Buffer> {
  const file = await open(path);
  try {
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** UTF-8 (Excel's "CSV UTF-8"), else Windows-1252, which Excel's plain "CSV" writes on Windows. */
async function isUtf8(path: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK }))
      decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}
