import { ZPidSchema, UNITS_MAX } from '../demand-record.schema';
import { COMMENTS_MAX_LENGTH } from '../demand-record';
import { toIsoDate } from '../weeks';
import { cellText, isBlankCell, parseDateCell, parseNumberCell, type Cell } from './cells';
import {
  IMPORT_FORECAST_FIELDS,
  IMPORT_FIELDS,
  IMPORT_OVERRIDE_FIELDS,
  REQUIRED_IMPORT_FIELDS,
  mapHeaders,
  type ImportField,
  type ImportQuarterField,
} from './headers';

/** One row of an import as the service applies it (spec §3 "Imported demand planning item"). */
export type ImportedItem = {
  sku: string;
  category: string;
  businessUnit: string;
  region?: string;
  site?: string;
  plannerName?: string;
  notes?: string;
  /** yyyy-mm-dd. */
  lastModified?: string;
} & Partial<Record<ImportQuarterField, number>>;

export type ImportRow = ImportedItem & { row: number };

export type ImportIssue = {
  /** Sheet row number: the header is row 1 in a plain sheet, data starts at 2. */
  row: number;
  field: string;
  message: string;
  severity: 'error' | 'warning';
  /** The row's SKU when it has one, so a refusal can name it. */
  sku?: string;
};

/** Spec §3 "Import result": valid rows, errors and warnings by row and field, duplicates. */
export type ImportValidation = {
  /** Non-blank data rows read. */
  totalRows: number;
  validRows: ImportRow[];
  errors: ImportIssue[];
  warnings: ImportIssue[];
  /** The header row's texts of the columns that were recognised, by field. */
  columns: Partial<Record<ImportField, string>>;
};

export type ImportFileProblem = { problem: string };

export const EMPTY_FILE_MESSAGE = 'The file appears to be empty';
export const IMPORT_TEXT_MAX_LENGTH: Record<'sku' | 'text' | 'notes', number> = {
  sku: 64,
  text: 100,
  notes: COMMENTS_MAX_LENGTH,
};
/** Header rows searched: our own export writes its applied filters above the header. */
const HEADER_SEARCH_ROWS = 30;

const isBlankRow = (row: readonly Cell[]): boolean => row.every(isBlankCell);

/**
 * Validates a sheet's rows per spec §5: finds the header (the first row naming the required
 * columns, else the first non-blank row), maps its columns through the aliases, then checks each
 * data row. Blank rows are skipped; a row with an error is left out of validRows. `today` is the
 * date an invalid lastModified falls back to.
 */
export function validateImportRows(
  rows: readonly (readonly Cell[])[],
  today: Date,
): ImportValidation | ImportFileProblem {
  const firstFilled = rows.findIndex((row) => !isBlankRow(row));
  if (firstFilled < 0) return { problem: EMPTY_FILE_MESSAGE };
  let headerIndex = firstFilled;
  for (let i = firstFilled; i < Math.min(rows.length, firstFilled + HEADER_SEARCH_ROWS); i++) {
    const mapping = mapHeaders((rows[i] ?? []).map(cellText));
    if (REQUIRED_IMPORT_FIELDS.every((f) => mapping[f] !== undefined)) {
      headerIndex = i;
      break;
    }
  }
  const headers = (rows[headerIndex] ?? []).map(cellText);
  const mapping = mapHeaders(headers);
  const missing = REQUIRED_IMPORT_FIELDS.filter((f) => mapping[f] === undefined);
  if (missing.length > 0) return { problem: `Missing required columns: ${missing.join(', ')}` };

  const result: ImportValidation = { totalRows: 0, validRows: [], errors: [], warnings: [], columns: {} };
  for (const field of IMPORT_FIELDS) {
    const column = mapping[field];
    if (column !== undefined) result.columns[field] = headers[column] ?? field;
  }
  const firstRowOf = new Map<string, number>();
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const cells = rows[i] ?? [];
    if (isBlankRow(cells)) continue;
    result.totalRows += 1;
    const item = validateRow(cells, i + 1, mapping, today, result);
    if (!item) continue;
    const key = item.sku.toUpperCase();
    const first = firstRowOf.get(key);
    if (first !== undefined) {
      result.errors.push({
        row: item.row,
        field: 'sku',
        message: `Duplicate SKU "${item.sku}" in this file (first on row ${first})`,
        severity: 'error',
        sku: item.sku,
      });
      continue;
    }
    firstRowOf.set(key, item.row);
    result.validRows.push(item);
  }
  return result;
}

function validateRow(
  cells: readonly Cell[],
  row: number,
  mapping: Partial<Record<ImportField, number>>,
  today: Date,
  result: ImportValidation,
): ImportRow | null {
  const cellOf = (field: ImportField): Cell => {
    const column = mapping[field];
    return column === undefined ? null : (cells[column] ?? null);
  };
  const errorCount = result.errors.length;
  const item: Partial<ImportRow> = { row };
  const error = (field: string, message: string): void => {
    result.errors.push({ row, field, message, severity: 'error', ...(item.sku ? { sku: item.sku } : {}) });
  };
  const warning = (field: string, message: string): void => {
    result.warnings.push({ row, field, message, severity: 'warning' });
  };
  const text = (field: ImportField, max: number): string | undefined => {
    const value = cellText(cellOf(field));
    if (value === '') return undefined;
    if (value.length > max) error(field, `${field} must be at most ${max} characters`);
    return value;
  };

  for (const field of REQUIRED_IMPORT_FIELDS) {
    const value = text(field, field === 'sku' ? IMPORT_TEXT_MAX_LENGTH.sku : IMPORT_TEXT_MAX_LENGTH.text);
    if (value === undefined) error(field, `${field} is required but is empty`);
    else item[field] = value;
  }
  if (item.sku !== undefined) {
    const sku = ZPidSchema.safeParse(item.sku);
    if (!sku.success) error('sku', `sku ${sku.error.issues[0]?.message ?? 'is not valid'}`);
  }
  for (const field of ['region', 'site', 'plannerName'] as const) {
    const value = text(field, IMPORT_TEXT_MAX_LENGTH.text);
    if (value !== undefined) item[field] = value;
  }
  const notes = text('notes', IMPORT_TEXT_MAX_LENGTH.notes);
  if (notes !== undefined) item.notes = notes;

  for (const field of [...IMPORT_FORECAST_FIELDS, ...IMPORT_OVERRIDE_FIELDS]) {
    const cell = cellOf(field);
    if (isBlankCell(cell)) continue;
    const value = parseNumberCell(cell);
    if (value === null) {
      warning(field, `Invalid number "${cellText(cell)}" - will be set to 0`);
      item[field] = 0;
    } else if (value < 0 || value > UNITS_MAX) {
      error(field, `${field} must be between 0 and ${UNITS_MAX}`);
    } else item[field] = Math.round(value);
  }

  const modified = cellOf('lastModified');
  if (!isBlankCell(modified)) {
    const date = parseDateCell(modified);
    if (!date) warning('lastModified', `Invalid date "${cellText(modified)}" - will use current date`);
    item.lastModified = toIsoDate(date ?? today);
  }
  return result.errors.length === errorCount && item.sku ? (item as ImportRow) : null;
}

export const isImportFileProblem = (
  value: ImportValidation | ImportFileProblem,
): value is ImportFileProblem => 'problem' in value;
