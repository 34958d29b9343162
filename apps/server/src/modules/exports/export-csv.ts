import {
  DEMAND_RECORD_FIELDS,
  SUMMED_FIELDS,
  fieldSpecOf,
  type AggregatedRow,
  type DemandRecord,
  type DrillDown,
  type GridRow,
  type ExportCurrency,
  type ViewLevel,
  exportMoney,
  neutraliseText,
} from '@ps/domain';

/**
 * CSV of what the grid shows (spec §9 'Exports'): the columns of the view, money with 2 decimals,
 * RFC 4180 quoting, and text that a spreadsheet would run as a formula made inert.
 */
type Cell = string | number | boolean | null | undefined;
type Column = {
  header: string;
  value: (row: GridRow) => Cell;
  /** `rate`: an exchange rate, written as it is. */
  kind: 'text' | 'money' | 'percent' | 'number' | 'rate';
};

/** How a record field reads in the CSV, from its kind in the field catalogue. */
function kindOf(name: string): Column['kind'] {
  const kind = fieldSpecOf(name)?.kind;
  if (kind === 'money' || kind === 'percent') return kind;
  if (kind === 'units' || kind === 'forecast' || kind === 'rank') return 'number';
  return 'text';
}

/** Every record field but the two that repeat others (Time_Series is Date, version is bookkeeping). */
const RECORD_FIELDS = DEMAND_RECORD_FIELDS.filter((s) => s.field !== 'Time_Series' && s.kind !== 'version');

/** A column headed as the grid heads it: the field catalogue's label, not the field's name. */
const field = (name: string, kind: Column['kind']): Column => ({
  header: fieldSpecOf(name)?.label ?? name,
  kind,
  value: (row) => (row as Record<string, Cell>)[name],
});

/** The grid's columns for a view: the record's fields, or the group keys and rolled-up figures. */
function gridColumns(viewLevel: ViewLevel, drillDown: DrillDown): Column[] {
  if (viewLevel === 'none' && drillDown === 'none') {
    return RECORD_FIELDS.map((spec) => field(spec.field, kindOf(spec.field)));
  }
  const keys =
    viewLevel === 'business_unit' ? ['BU'] : viewLevel === 'category' ? ['PF', 'BU'] : ['PID', 'PF', 'BU'];
  return [
    ...keys.map((name) => field(name, 'text')),
    ...(drillDown === 'none' ? [] : [{ ...field('periodLabel', 'text'), header: 'Period' }]),
    { ...field('recordCount', 'number'), header: 'Records' },
    ...SUMMED_FIELDS.map((name) => field(name, kindOf(name))),
    field('Rev_Pln_Ovrd_Percent', 'percent'),
    field('SOP_Pln_Ovrd_Percent', 'percent'),
    field('Rank', 'number'),
    field('Comments', 'text'),
    { header: 'Reason Codes', kind: 'text', value: (row) => (row as AggregatedRow).Reason_Codes.join('; ') },
    field('last_updated_at', 'text'),
  ];
}

/**
 * The Quick Export's columns: the grid's, money converted to the user's currency, then three
 * columns that say on every row which currency and rate the money is in (a planner who sorts,
 * filters or copies rows in Excel keeps that with them; docs/spreadsheet-export.md "Currency").
 */
export function exportColumns(
  viewLevel: ViewLevel,
  drillDown: DrillDown,
  currency: ExportCurrency,
): Column[] {
  const rate = currency.rate;
  return [
    ...gridColumns(viewLevel, drillDown).map((column) => {
      if (column.kind !== 'money') return column;
      const dollars = column.value;
      return { ...column, value: (row: GridRow) => exportMoney(toNumber(dollars(row)), currency) };
    }),
    { header: 'Currency', kind: 'text', value: () => rate.currency.toUpperCase() },
    { header: 'Rate per USD', kind: 'rate', value: () => rate.rate },
    { header: 'Rate Valid From', kind: 'text', value: () => rate.validFrom },
  ];
}

const toNumber = (value: Cell): number | null => (typeof value === 'number' ? value : null);

/** One CSV cell. Text starting with = + - @ (or a tab or carriage return) gets a leading apostrophe. */
export function csvCell(value: Cell, kind: Column['kind']): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return kind === 'money' || kind === 'percent' ? value.toFixed(2) : String(value);
  }
  const text = neutraliseText(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly string[]): string => `${cells.join(',')}\r\n`;

export function csvHeader(columns: readonly Column[]): string {
  return csvLine(columns.map((c) => csvCell(c.header, 'text')));
}

export function csvRow(columns: readonly Column[], row: GridRow | DemandRecord): string {
  return csvLine(columns.map((c) => csvCell(c.value(row), c.kind)));
}
