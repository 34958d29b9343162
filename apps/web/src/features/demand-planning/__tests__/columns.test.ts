import {
  EDITABLE_FIELDS,
  fieldLabel,
  formatCurrency,
  formatScaledCurrency,
  formatTrackerValue,
  formatDashboardCurrency,
  formatDate,
  formatDateTime,
  formatMoneyCell,
  formatNumber,
  formatPercentCell,
  formatSignedPercent,
  formatSignedThousands,
  type AggregatedRow,
  type GridRow,
} from '@ps/domain';
import type { ColDef } from 'ag-grid-community';
import { describe, expect, it } from 'vitest';
import type { Formatters } from '@/lib/settings/useFormatters';
import { i18next } from '../../../i18n/i18n';
import { aggregatedColumns, groupKeysOf, recordColumns } from '../grid/columns';
import { NO_PENDING_CHANGES, recordEdit } from '../utils/pending-changes';
import englishPlanning from '../../../i18n/locales/en/planning.json';
import { demandRecord } from './demand-record.fixture';

/** Headers are catalogue keys ('planning:column.X'); the English catalogue holds the spec's words. */
function englishHeader(column: ColDef<GridRow>): string | undefined {
  const key = column.headerName?.replace(/^planning:column\./, '') ?? '';
  return (englishPlanning.column as Record<string, string>)[key];
}

/** The formatters useFormatters() gives a user with the default settings (us, usd, mm/dd/yyyy). */
const fmt: Formatters = {
  number: (value, decimals = 0) => formatNumber(value, { decimals }),
  currency: (value, decimals = 2) => formatCurrency(value, { decimals }),
  money: (value) => formatMoneyCell(value),
  percent: (value) => formatPercentCell(value),
  dashboardCurrency: (value) => formatDashboardCurrency(value),
  signedPercent: (value) => formatSignedPercent(value),
  signedThousands: (value) => formatSignedThousands(value),
  date: (value) => formatDate(value, 'mm/dd/yyyy'),
  scaled: (value, scale) => formatScaledCurrency(value, scale),
  tracker: (value) => formatTrackerValue(value),
  convert: (value) => value,
  dateTime: (value) => formatDateTime(value, 'mm/dd/yyyy'),
  rate: { currency: 'usd', rate: 1, validFrom: null },
  symbol: '$',
  missingRate: false,
};

const byId = (columns: ColDef<GridRow>[], id: string) => columns.find((c) => c.colId === id)!;
const format = (column: ColDef<GridRow>, value: unknown) =>
  (column.valueFormatter as (p: { value: unknown }) => string)({ value });

describe('record columns', () => {
  it('make exactly the six override fields editable, and only in edit mode', () => {
    const editing = recordColumns(fmt, { pending: NO_PENDING_CHANGES, isEditMode: true });
    expect(editing.filter((c) => c.editable === true).map((c) => c.colId)).toEqual([...EDITABLE_FIELDS]);
    const reading = recordColumns(fmt, { pending: NO_PENDING_CHANGES, isEditMode: false });
    expect(reading.filter((c) => c.editable === true)).toEqual([]);
  });

  it("use the spec's editors; numbers are typed as text so the rules can say why a value is refused", () => {
    const columns = recordColumns(fmt, { pending: NO_PENDING_CHANGES, isEditMode: true });
    // AG Grid's number editor silently drops 150 or "abc"; a text editor hands them to parseEditValue.
    expect(byId(columns, 'Rev_Pln_Ovrd_Percent')).toMatchObject({ cellEditor: 'agTextCellEditor' });
    expect(byId(columns, 'SOP_Pln_Ovrd_Units')).toMatchObject({ cellEditor: 'agTextCellEditor' });
    expect(byId(columns, 'Reason_Code').cellEditorParams).toEqual({
      values: ['', 'Market Trend', 'Supply Chain', 'Seasonal Adjustment', 'Strategic Initiative', 'Other'],
    });
    expect(byId(columns, 'Comments')).toMatchObject({
      cellEditor: 'agLargeTextCellEditor',
      cellEditorParams: { maxLength: 500, rows: 3 },
    });
  });

  it('pin the Product ID and format money with $ and 2 decimals, percents with 2 decimals', () => {
    const columns = recordColumns(fmt, { pending: NO_PENDING_CHANGES, isEditMode: false });
    expect(columns[0]).toMatchObject({ colId: 'PID', pinned: 'left' });
    expect(byId(columns, 'Date')).toMatchObject({ pinned: 'left' });
    expect(format(byId(columns, 'Final_Pln_Rev_Dlrs'), 1234.5)).toBe('$1,234.50');
    expect(format(byId(columns, 'SOP_Pln_Ovrd_Percent'), 7)).toBe('7.00%');
    expect(format(byId(columns, 'Final_Pln_Units'), 1200)).toBe('1,200');
    expect(format(byId(columns, 'Ensemble_Fcst_Units'), 95.614)).toBe('95.61');
  });

  it('mark a changed cell and leave its neighbours alone', () => {
    const record = demandRecord();
    const pending = recordEdit(NO_PENDING_CHANGES, record, 'Comments', 'new');
    const columns = recordColumns(fmt, { pending, isEditMode: true });
    const isChanged = (field: string) =>
      (byId(columns, field).cellClassRules!['dp-cell-changed'] as (p: { data: unknown }) => boolean)({
        data: record,
      });
    expect(isChanged('Comments')).toBe(true);
    expect(isChanged('Reason_Code')).toBe(false);
  });
});

describe('aggregated columns', () => {
  const row = {
    id: 'pf:Ball Valves|2026-Q4',
    viewLevel: 'category',
    drillDown: 'quarterly',
    BU: 'Flow Control',
    PF: 'Ball Valves',
    periodKey: '2026-Q4',
    periodLabel: '2026-Q4',
    recordCount: 12,
    Reason_Codes: ['Market Trend', 'Other'],
  } as unknown as AggregatedRow;

  it('show only the keys the level groups by, the first pinned, and no editable column', () => {
    const columns = aggregatedColumns(groupKeysOf([row]), fmt);
    expect(columns.slice(0, 4).map((c) => c.colId)).toEqual(['BU', 'PF', 'periodLabel', 'recordCount']);
    expect(columns[0]!.pinned).toBe('left');
    expect(columns.some((c) => c.colId === 'PID')).toBe(false);
    expect(columns.some((c) => c.editable)).toBe(false);
    expect(format(byId(columns, 'Reason_Codes'), row.Reason_Codes)).toBe('Market Trend, Other');
  });

  it('show how many comments a row holds just before its comments, as a whole number, unsorted', () => {
    const columns = aggregatedColumns(groupKeysOf([row]), fmt);
    const ids = columns.map((c) => c.colId);
    expect(ids.indexOf('commentCount')).toBe(ids.indexOf('Comments') - 1);
    const count = byId(columns, 'commentCount');
    expect(count.sortable).toBe(false);
    expect(format(count, 1234)).toBe('1,234');
    expect(englishHeader(count)).toBe('Comment count');
  });

  it('make the override columns editable cells in edit mode only, plain figures otherwise', () => {
    const edit = { pending: NO_PENDING_CHANGES, isEditMode: true };
    const editing = byId(aggregatedColumns(groupKeysOf([row]), fmt, edit), 'SOP_Pln_Ovrd_Units');
    expect(editing.editable).toBe(true);
    expect(editing.cellRenderer).toBeDefined();
    const reading = byId(
      aggregatedColumns(groupKeysOf([row]), fmt, { ...edit, isEditMode: false }),
      'SOP_Pln_Ovrd_Units',
    );
    expect(reading.editable).toBeUndefined();
    expect(reading.cellRenderer).toBeUndefined();
    expect(format(reading, 20_010)).toBe('20,010');
  });

  it("label a week in the user's language and date format, months and quarters as their keys", async () => {
    const week = {
      ...row,
      drillDown: 'weekly',
      periodKey: '2026-11-15',
      periodLabel: 'Week ending 11/21/2026',
    };
    const label = (data: AggregatedRow, formatters: Formatters) => {
      const column = byId(aggregatedColumns(groupKeysOf([data]), formatters), 'periodLabel');
      return (column.valueFormatter as (p: { value: unknown; data: unknown }) => string)({
        value: data.periodLabel,
        data,
      });
    };
    expect(label(week as AggregatedRow, fmt)).toBe('Week ending 11/21/2026');
    const dayFirst: Formatters = { ...fmt, date: (value) => formatDate(value, 'dd/mm/yyyy') };
    await i18next.changeLanguage('de');
    try {
      expect(label(week as AggregatedRow, dayFirst)).toBe('Woche bis 21/11/2026');
    } finally {
      await i18next.changeLanguage('en');
    }
    expect(label(row, fmt)).toBe('2026-Q4');
  });

  it('show the figures in record order, each override percent weighted before its units', () => {
    const ids = aggregatedColumns(groupKeysOf([row]), fmt).map((c) => c.colId);
    expect(ids.slice(4, 12)).toEqual([
      'Act_Bkg_Units',
      'Act_Bkg_Cost',
      'Act_Rev_Dlrs',
      'Naïve_Rev_Mfg_Fcst_Bk_Units',
      'Ensemble_Fcst_Units',
      'Rev_Pln_Ovrd_Percent',
      'Rev_Pln_Ovrd_Units',
      'Prelim_Pln_Units',
    ]);
    const columns = aggregatedColumns(groupKeysOf([row]), fmt);
    expect(englishHeader(byId(columns, 'SOP_Pln_Ovrd_Percent'))).toBe('S&OP Plan Override % (weighted)');
    expect(englishHeader(byId(columns, 'P2_Pub_Pln_Rev_Dlrs'))).toBe('P2 Published Revenue');
    expect(format(byId(columns, 'Delta_Prelim_to_Final_Pln_Cost'), 1234.5)).toBe('$1,234.50');
    expect(format(byId(columns, 'Ensemble_Fcst_Units'), 12.345)).toBe('12.35');
  });
});

describe('record column headers', () => {
  it('read in English exactly as the field catalogue labels them', () => {
    for (const column of recordColumns(fmt, { pending: NO_PENDING_CHANGES, isEditMode: false })) {
      const label = fieldLabel(column.colId ?? '');
      if (label) expect(englishHeader(column)).toBe(label);
    }
  });
});
