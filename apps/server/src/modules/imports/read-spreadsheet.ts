import { getHeapStatistics } from 'node:v8';
import {
  csvRows,
  hasRequiredHeader,
  isBlankCell,
  ImportRowsValidator,
  type Cell,
  type ImportFileProblem,
  type ImportValidation,
} from '@ps/domain';
import { openXlsxWorkbook, type StreamedWorkbook } from './xlsx-sheets';
import { readXlsRows } from './xls-sheets';
import { openZip, ZipDamage } from './zip-guard';

export type ReadLimits = { maxRows: number; maxUnpackedBytes: number };
export type FileKind = 'csv' | 'xlsx' | 'xls';

/** What a file's extension promises. */
export function kindOfName(fileName: string): FileKind | null {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return extension === 'csv' || extension === 'xlsx' || extension === 'xls' ? extension : null;
}

const isZip = (b: Buffer): boolean => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50;
const isOle = (b: Buffer): boolean =>
  b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1;
const hasUtf16Mark = (b: Buffer): boolean =>
  b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));

/** Rows between two looks at the heap's size. */
const HEAP_SAMPLE_ROWS = 2048;
const heapMb = (): number => Math.round(getHeapStatistics().used_heap_size / 1024 / 1024);

/**
 * Feeds rows to the rules, times them and samples the heap; `false` from `push` means the row
 * limit was passed.
 */
class Rows {
  readonly validator: ImportRowsValidator;
  validateMs = 0;
  peakHeapMb = heapMb();
  private count = 0;
  constructor(
    today: Date,
    private readonly maxRows: number,
  ) {
    this.validator = new ImportRowsValidator(today);
  }
  push(cells: Cell[], row: number): boolean {
    const started = performance.now();
    this.validator.push(cells, row);
    this.validateMs += performance.now() - started;
    if (++this.count % HEAP_SAMPLE_ROWS === 0) this.peakHeapMb = Math.max(this.peakHeapMb, heapMb());
    return this.validator.dataRows <= this.maxRows;
  }
}

/**
 * Reads an uploaded file into validated rows: checks that its bytes are what its extension says,
 * guards archives, picks the sheet and applies the domain's rules (spec §5). Runs in a worker.
 * Rows are validated as they are read, so only the valid rows' values are kept, never the sheet:
 * memory follows the import's columns, not the file's. The row limit counts data rows exactly
 * (blank rows, filter lines and the header are not data) and stops reading once passed.
 */
export async function readSpreadsheet(
  fileName: string,
  buffer: Buffer,
  limits: ReadLimits,
  today: Date,
  /**
   * Gets the milliseconds spent reading cells and validating rows, and the largest heap seen while
   * reading (MB, sampled every few thousand rows and at the end).
   */
  steps: { readMs: number; validateMs: number; parseHeapMb?: number } = { readMs: 0, validateMs: 0 },
): Promise<ImportValidation | ImportFileProblem> {
  const started = performance.now();
  const rows = new Rows(today, limits.maxRows);
  const result = await read(fileName, buffer, limits, rows);
  steps.parseHeapMb = Math.max(rows.peakHeapMb, heapMb());
  steps.validateMs = Math.round(rows.validateMs);
  steps.readMs = Math.round(performance.now() - started - rows.validateMs);
  return result;
}

async function read(
  fileName: string,
  buffer: Buffer,
  limits: ReadLimits,
  rows: Rows,
): Promise<ImportValidation | ImportFileProblem> {
  const kind = kindOfName(fileName);
  if (!kind) return { problem: 'Only .xlsx, .xls and .csv files can be imported' };
  if (buffer.length === 0) return { problem: 'The file appears to be empty' };
  const tooMany = { problem: tooManyRows(limits.maxRows) };
  if (kind === 'csv') {
    if (isOle(buffer) || isZip(buffer) || (!hasUtf16Mark(buffer) && buffer.includes(0)))
      return { problem: mismatch(kind) };
    let row = 0;
    for (const cells of csvRows(decodeText(buffer))) if (!rows.push(cells, ++row)) return tooMany;
    return rows.validator.finish();
  }
  // A workbook is read by what it holds: an .xls saved as .xlsx (or the reverse) still opens in Excel.
  if (isOle(buffer)) {
    const read = await readXlsRows(buffer, (cells, row) => rows.push(cells, row));
    if (read === 'stopped') return tooMany;
    return read ?? rows.validator.finish();
  }
  if (!isZip(buffer)) return { problem: mismatch(kind) };
  const archive = openZip(buffer, limits.maxUnpackedBytes);
  if ('problem' in archive) return archive;
  try {
    const workbook = await openXlsxWorkbook(archive);
    if ('problem' in workbook) return workbook;
    let over = false;
    await workbook.readRows(await chooseSheet(workbook), (cells, row) => {
      over = !rows.push(cells, row);
      return !over;
    });
    return over ? tooMany : rows.validator.finish();
  } catch (error) {
    if (error instanceof ZipDamage) return { problem: error.message };
    throw error;
  }
}

const mismatch = (kind: FileKind): string =>
  kind === 'csv'
    ? 'The file is not a text CSV file: its contents do not match its .csv extension'
    : `The file is not an Excel workbook: its contents do not match its .${kind} extension`;

export const tooManyRows = (max: number): string =>
  `The file has more than ${max.toLocaleString('en-US')} rows, the most one import takes; split it into smaller files`;

/**
 * UTF-16 with its byte order mark (Excel's "Unicode Text"), UTF-8 (Excel's "CSV UTF-8"), else
 * Windows-1252, which Excel's plain "CSV" uses on Windows.
 */
function decodeText(buffer: Buffer): string {
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return new TextDecoder('utf-16le').decode(buffer);
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return new TextDecoder('utf-16be').decode(buffer);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return decodeWindows1252(buffer);
  }
}

/** Windows-1252's characters for bytes 0x80–0x9F; the rest of it is Latin-1. */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Node's TextDecoder('windows-1252') decodes Latin-1 (no € or –), so the table is applied here. */
function decodeWindows1252(buffer: Buffer): string {
  return buffer
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** Rows read from a sheet to find its header: our export writes its filters above it. */
const HEADER_SEARCH_ROWS = 30;

/**
 * The sheet to import: our own Detailed Export's data sheet (a name with "data") when it has the
 * required columns, else the first sheet that has them, else the first sheet.
 */
async function chooseSheet(workbook: StreamedWorkbook): Promise<number> {
  const order = workbook.sheetNames
    .map((name, index) => ({ name, index }))
    .sort((a, b) => Number(/data/i.test(b.name)) - Number(/data/i.test(a.name)) || a.index - b.index);
  for (const { index } of order) {
    let found = false;
    let read = 0;
    await workbook.readRows(
      index,
      (cells) => {
        if (cells.every(isBlankCell)) return true;
        found = hasRequiredHeader(cells);
        read += 1;
        return !found && read < HEADER_SEARCH_ROWS;
      },
      false,
    );
    if (found) return index;
  }
  return 0;
}
