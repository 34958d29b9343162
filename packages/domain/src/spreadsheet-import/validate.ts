import { ZPidSchema, UNITS_MAX } from '../demand-record.schema';
import { COMMENTS_MAX_LENGTH, REASON_CODES, type ReasonCode } from '../demand-record';
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
  /** Written on every record the row's overrides change. */
  reasonCode?: ReasonCode;
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

/** Whether a row names every required column (through the aliases): the header of an import. */
export const hasRequiredHeader = (cells: readonly Cell[]): boolean => {
  const mapping = mapHeaders(cells.map(cellText));
  return REQUIRED_IMPORT_FIELDS.every((f) => mapping[f] !== undefined);
};

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
  const validator = new ImportRowsValidator(today);
  rows.forEach((cells, index) => validator.push(cells, index + 1));
  return validator.finish();
}

/**
 * validateImportRows one row at a time, so a reader can stream a sheet through it and keep only
 * the valid rows: rows go in with their sheet row numbers, in order; only the rows of the header
 * search window are held until the header is known.
 */
export class ImportRowsValidator {
  private readonly result: ImportValidation = {
    totalRows: 0,
    validRows: [],
    errors: [],
    warnings: [],
    columns: {},
  };
  private readonly firstRowOf = new Map<string, number>();
  private readonly pending: Array<{ cells: readonly Cell[]; row: number }> = [];
  private mapping: Partial<Record<ImportField, number>> | undefined;
  private problem: string | undefined;
  private lastRow = 0;

  constructor(private readonly today: Date) {}

  /** Non-blank data rows so far (a reader stops at its row limit). */
  get dataRows(): number {
    return this.result.totalRows;
  }

  push(cells: readonly Cell[], row = this.lastRow + 1): void {
    this.lastRow = row;
    if (this.problem !== undefined) return;
    if (this.mapping) return this.validate(cells, row);
    if (this.pending.length === 0 && isBlankRow(cells)) return;
    const first = this.pending[0]?.row ?? row;
    if (row >= first + HEADER_SEARCH_ROWS) {
      this.chooseHeader();
      this.push(cells, row);
      return;
    }
    this.pending.push({ cells, row });
    if (hasRequiredHeader(cells)) this.chooseHeader();
  }

  finish(): ImportValidation | ImportFileProblem {
    if (this.problem === undefined && !this.mapping) {
      if (this.pending.length === 0) return { problem: EMPTY_FILE_MESSAGE };
      this.chooseHeader();
    }
    return this.problem !== undefined ? { problem: this.problem } : this.result;
  }

  /** The header: the first held row naming the required columns, else the first non-blank row. */
  private chooseHeader(): void {
    const index = Math.max(
      0,
      this.pending.findIndex((p) => hasRequiredHeader(p.cells)),
    );
    const headers = (this.pending[index]?.cells ?? []).map(cellText);
    const mapping = mapHeaders(headers);
    const missing = REQUIRED_IMPORT_FIELDS.filter((f) => mapping[f] === undefined);
    const rest = this.pending.splice(0).slice(index + 1);
    if (missing.length > 0) {
      this.problem = `Missing required columns: ${missing.join(', ')}`;
      return;
    }
    this.mapping = mapping;
    for (const field of IMPORT_FIELDS) {
      const column = mapping[field];
      if (column !== undefined) this.result.columns[field] = headers[column] ?? field;
    }
    for (const { cells, row } of rest) this.validate(cells, row);
  }

  private validate(cells: readonly Cell[], row: number): void {
    if (isBlankRow(cells)) return;
    const result = this.result;
    result.totalRows += 1;
    const item = validateRow(cells, row, this.mapping!, this.today, result);
    if (!item) return;
    const key = item.sku.toUpperCase();
    const first = this.firstRowOf.get(key);
    if (first !== undefined) {
      result.errors.push({
        row: item.row,
        field: 'sku',
        message: `Duplicate SKU "${item.sku}" in this file (first on row ${first})`,
        severity: 'error',
        sku: item.sku,
      });
      return;
    }
    this.firstRowOf.set(key, item.row);
    result.validRows.push(item);
  }
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
  const item: Partial<ImportRow> = { row };
  // A refused row is one issue naming its SKU (as typed, even when the SKU itself is what is wrong).
  const problems: Array<{ field: string; message: string }> = [];
  const error = (field: string, message: string): void => {
    problems.push({ field, message });
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
  const reason = text('reasonCode', IMPORT_TEXT_MAX_LENGTH.text);
  if (reason !== undefined) {
    const code = reasonCodeOf(reason);
    if (code) item.reasonCode = code;
    else error('reasonCode', `reasonCode must be one of ${REASON_CODES.join(', ')}`);
  }

  for (const field of [...IMPORT_FORECAST_FIELDS, ...IMPORT_OVERRIDE_FIELDS]) {
    const cell = cellOf(field);
    if (isBlankCell(cell)) continue;
    const value = parseNumberCell(cell);
    if (value === null) {
      warning(field, `Invalid number "${cellText(cell)}" - will be set to 0`);
      item[field] = 0;
    } else if (value < 0 || value > UNITS_MAX) {
      error(field, `${field} must be between 0 and ${UNITS_MAX}`);
    } else item[field] = isForecast(field) ? value : Math.round(value);
  }

  const modified = cellOf('lastModified');
  if (!isBlankCell(modified)) {
    const date = parseDateCell(modified);
    if (!date) warning('lastModified', `Invalid date "${cellText(modified)}" - will use current date`);
    item.lastModified = toIsoDate(date ?? today);
  }
  if (problems.length > 0) {
    const sku = cellText(cellOf('sku'));
    result.errors.push({
      row,
      field: problems[0]!.field,
      message: [...new Set(problems.map((p) => p.message))].join('; '),
      severity: 'error',
      ...(sku ? { sku } : {}),
    });
    return null;
  }
  return item.sku ? (item as ImportRow) : null;
}

/** The reason code a cell names, whatever its case and spacing ("seasonal  adjustment"). */
function reasonCodeOf(text: string): ReasonCode | undefined {
  const wanted = text.toLowerCase().replace(/\s+/g, ' ');
  return REASON_CODES.find((code) => code.toLowerCase() === wanted);
}

/** Forecasts are statistical and keep their decimals; overrides are whole units (spec §5). */
const isForecast = (field: ImportQuarterField): boolean =>
  (IMPORT_FORECAST_FIELDS as readonly string[]).includes(field);

/** Why a row breaks the admin's policy that every override carries a reason code. */
export const IMPORT_REASON_REQUIRED =
  'reasonCode is required: the row sets an override, and an admin requires every override to carry a reason code';

/** A row (or item) that gives an override and no reason code. */
export const lacksImportReason = (row: ImportedItem): boolean =>
  !row.reasonCode && IMPORT_OVERRIDE_FIELDS.some((field) => row[field] !== undefined);

/**
 * The admin's reason-code policy on a file: a row that gives an override and no reason code is
 * refused, as one issue naming its SKU, like any other refused row.
 */
export function withReasonPolicy(
  validation: ImportValidation,
  requireOverrideReason: boolean,
): ImportValidation {
  if (!requireOverrideReason) return validation;
  const lacking = lacksImportReason;
  const refused = validation.validRows.filter(lacking);
  if (refused.length === 0) return validation;
  return {
    ...validation,
    validRows: validation.validRows.filter((row) => !lacking(row)),
    errors: [
      ...validation.errors,
      ...refused.map((row) => ({
        row: row.row,
        field: 'reasonCode',
        message: IMPORT_REASON_REQUIRED,
        severity: 'error' as const,
        sku: row.sku,
      })),
    ].sort((a, b) => a.row - b.row),
  };
}

export const isImportFileProblem = (
  value: ImportValidation | ImportFileProblem,
): value is ImportFileProblem => 'problem' in value;

/** Refused rows a "nothing to import" message names before it says how many more there are. */
const NAMED_REFUSALS = 3;

/**
 * Why a file imports nothing (no data row, or every row refused), naming the first refusals by row
 * and SKU; null when it has a valid row.
 */
export function nothingToImportMessage(validation: ImportValidation): string | null {
  if (validation.validRows.length > 0) return null;
  if (validation.errors.length === 0) return 'The file has no data rows to import';
  const named = validation.errors
    .slice(0, NAMED_REFUSALS)
    .map((issue) => `row ${issue.row}${issue.sku ? ` (${issue.sku})` : ''}: ${issue.message}`);
  const more = validation.errors.length - named.length;
  return `No row of the file can be imported: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
