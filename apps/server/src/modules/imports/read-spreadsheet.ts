import {
  mapHeaders,
  parseCsv,
  REQUIRED_IMPORT_FIELDS,
  validateImportRows,
  cellText,
  type Cell,
  type ImportFileProblem,
  type ImportValidation,
} from '@ps/domain';
import { xlsxSheets, type XlsxSheet } from './xlsx-sheets';
import { zipProblem } from './zip-guard';

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

export const XLS_MESSAGE =
  'Excel 97-2003 workbooks (.xls) cannot be imported: open the file in Excel and save it as .xlsx or .csv';

/**
 * Reads an uploaded file into validated rows: checks that its bytes are what its extension says,
 * guards archives, picks the sheet and applies the domain's rules (spec §5). Runs in a worker.
 */
export async function readSpreadsheet(
  fileName: string,
  buffer: Buffer,
  limits: ReadLimits,
  today: Date,
  /** Gets the milliseconds spent reading cells and validating rows. */
  steps: { readMs: number; validateMs: number } = { readMs: 0, validateMs: 0 },
): Promise<ImportValidation | ImportFileProblem> {
  const started = performance.now();
  const validate = (rows: Cell[][]): ImportValidation | ImportFileProblem => {
    const read = performance.now();
    steps.readMs = Math.round(read - started);
    const validation = validateImportRows(rows, today);
    steps.validateMs = Math.round(performance.now() - read);
    return validation;
  };
  const kind = kindOfName(fileName);
  if (!kind) return { problem: 'Only .xlsx, .xls and .csv files can be imported' };
  if (buffer.length === 0) return { problem: 'The file appears to be empty' };
  if (isOle(buffer)) return { problem: kind === 'csv' ? mismatch(kind) : XLS_MESSAGE };
  if (kind === 'xls') return { problem: XLS_MESSAGE };
  if (kind === 'xlsx') {
    if (!isZip(buffer)) return { problem: mismatch(kind) };
    const parts = new Map<string, Buffer>();
    const problem = zipProblem(buffer, limits.maxUnpackedBytes, parts);
    if (problem) return { problem };
    return readWorkbook(parts, limits, validate);
  }
  if (isZip(buffer) || buffer.includes(0)) return { problem: mismatch(kind) };
  const rows = parseCsv(decodeText(buffer), limits.maxRows + 1);
  if (rows.length > limits.maxRows + 1) return { problem: tooManyRows(limits.maxRows) };
  return validate(rows);
}

const mismatch = (kind: FileKind): string =>
  kind === 'csv'
    ? 'The file is not a text CSV file: its contents do not match its .csv extension'
    : 'The file is not an Excel workbook: its contents do not match its .xlsx extension';

const tooManyRows = (max: number): string =>
  `The file has more than ${max.toLocaleString('en-US')} rows, the most one import takes; split it into smaller files`;

/** UTF-8 (Excel's "CSV UTF-8"), else Windows-1252, which Excel's plain "CSV" uses on Windows. */
function decodeText(buffer: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return new TextDecoder('windows-1252').decode(buffer);
  }
}

async function readWorkbook(
  parts: Map<string, Buffer>,
  limits: ReadLimits,
  validate: (rows: Cell[][]) => ImportValidation | ImportFileProblem,
): Promise<ImportValidation | ImportFileProblem> {
  const sheets = xlsxSheets(parts);
  if (sheets.length === 0)
    return { problem: 'The file is not a valid .xlsx workbook: Excel could not read its contents' };
  const sheet = chooseSheet(sheets);
  const rows = sheet.rows();
  // A header and filter lines sit above the data; anything beyond them plus the limit is refused.
  if (rows.length > limits.maxRows + 30) {
    const dataRows = rows.filter((row) => row.some((cell) => cellText(cell) !== '')).length - 1;
    if (dataRows > limits.maxRows) return { problem: tooManyRows(limits.maxRows) };
  }
  return validate(rows);
}

/**
 * The sheet to import: our own Detailed Export's data sheet (a name with "data") when it has the
 * required columns, else the first sheet that has them, else the first sheet.
 */
function chooseSheet(sheets: XlsxSheet[]): XlsxSheet {
  const hasRequiredHeader = (sheet: XlsxSheet): boolean =>
    sheet
      .rows()
      .slice(0, 30)
      .some((row) => {
        const mapping = mapHeaders(row.map(cellText));
        return REQUIRED_IMPORT_FIELDS.every((field) => mapping[field] !== undefined);
      });
  const ordered = [
    ...sheets.filter((s) => /data/i.test(s.name)),
    ...sheets.filter((s) => !/data/i.test(s.name)),
  ];
  return ordered.find(hasRequiredHeader) ?? sheets[0]!;
}
