import type { Writable } from 'node:stream';
import {
  DATA_SHEET_HEADER_ROW,
  EXPORT_ROW_COLUMNS,
  SHEET_NAMES,
  TEMPLATE_COLUMNS,
  TEMPLATE_INSTRUCTIONS,
  TEMPLATE_REQUIRED_COLUMNS,
  addToSummary,
  buildExportRow,
  currencyStatement,
  emptySummary,
  exportCurrencyOf,
  exportMoney,
  horizonOf,
  neutraliseText,
  quarterPlansOf,
  weeksOfPeriod,
  DEFAULT_USER_SETTINGS,
  ZUserSettings,
  type ExportLocale,
  type ExportSummary,
  type ExportWeek,
  type GridExportQuery,
  type GridRow,
} from '@ps/domain';
import type ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import type { AccessScope } from '../../lib/access';
import type { Database } from '../../db/schema';
import { toDemandRecord } from '../../db/demand-record-row';
import type { PlanningGridService } from '../planning-grid';
import { csvHeader, csvRow, exportColumns } from './export-csv';
import {
  BOLD,
  HEADER_ARGB,
  HEADER_FILL,
  REQUIRED_FILL,
  TEXT_FORMAT,
  numberFormatter,
  widthFor,
  workbookWriter,
  xlsxCell,
  type XlsxKind,
} from './export-xlsx';
import { listRates } from '../exchange-rates';
import {
  countProducts,
  productKeysAfter,
  productsOf,
  recordsOfProducts,
  savedLocale,
  weeksOf,
} from './exports.repository';
import { XlsxStreamWriter, type XlsxValue } from './xlsx-writer';
import { drained } from './zip-writer';

/** Rows per database read while exporting: bounded memory, few round trips. */
export const EXPORT_PAGE_SIZE = 1000;
/**
 * Records per read of the original table. Small on purpose: a page that is written before the
 * collector's next young-generation pass dies young, where freeing it is cheap. Pages of 1,000
 * records outlived two passes, were moved to the old generation and piled up there as garbage
 * (200 MB between full collections at a million records).
 */
const RECORDS_PER_PAGE = 200;
const MAX_WEEKS_PER_PRODUCT = 156;
/** Product keys per keyset read; their records are then read a page at a time. */
const KEYS_PER_READ = 100;
/** Products per read of the Detailed Export (each brings its 52 horizon weeks). */
const DETAILED_PRODUCTS_PER_PAGE = 250;

/**
 * Quick Export (CSV or .xlsx of what the grid shows), Detailed Export (the export rows of spec §3
 * with a summary and an import template) and Template Download. Everything is streamed page by
 * page: a 3-million-record export never sits in memory.
 */
export class ExportService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly grid: PlanningGridService,
    private readonly pageSize = EXPORT_PAGE_SIZE,
  ) {}

  /**
   * The currency, rate, digit grouping and date pattern the user's screens show (Settings, saved
   * on the server; the latest rate valid today): every export writes money in that currency, says
   * which, and formats .xlsx numbers and dates the same way.
   */
  async localeOf(scope: AccessScope, now: Date): Promise<ExportLocale> {
    const [saved, rates] = await Promise.all([savedLocale(this.db, scope.userId), listRates(this.db)]);
    const currency = ZUserSettings.shape.currency.safeParse(saved.currency);
    const numberFormat = ZUserSettings.shape.numberFormat.safeParse(saved.numberFormat);
    const dateFormat = ZUserSettings.shape.dateFormat.safeParse(saved.dateFormat);
    return {
      currency: exportCurrencyOf(rates, currency.success ? currency.data : 'usd', now),
      numberFormat: numberFormat.success ? numberFormat.data : 'us',
      dateFormat: dateFormat.success ? dateFormat.data : DEFAULT_USER_SETTINGS.dateFormat,
    };
  }

  /**
   * The grid's rows in grid order, a page at a time. The original table (3 M records at scale) is
   * read in keyset pages of whole products, records with data first as the grid orders them; the
   * roll-ups, which are far fewer rows, with the grid's own paging.
   */
  async *gridPages(scope: AccessScope, query: GridExportQuery): AsyncGenerator<GridRow[]> {
    const filters = this.grid.filtersOf(scope, query);
    if (query.viewLevel === 'none' && query.drillDown === 'none') {
      // Sized for the longest history (156 weeks in the largest data set) so that a page never
      // holds much more than its records: what a page holds is what the export's memory is.
      const records = Math.min(this.pageSize, RECORDS_PER_PAGE);
      const productsPerPage = Math.max(1, Math.floor(records / MAX_WEEKS_PER_PRODUCT));
      for (const hasData of [true, false]) {
        for (let after: string | null = null; ;) {
          const pids = await productKeysAfter(this.db, filters, after, KEYS_PER_READ);
          for (let i = 0; i < pids.length; i += productsPerPage) {
            const page = await recordsOfProducts(this.db, pids.slice(i, i + productsPerPage), {
              hasData,
              filters,
            });
            if (page.length > 0) yield page.map(toDemandRecord);
          }
          if (pids.length < KEYS_PER_READ) break;
          after = pids.at(-1)!;
        }
      }
      return;
    }
    const view = { viewLevel: query.viewLevel, drillDown: query.drillDown, filters };
    for (let offset = 0; ; offset += this.pageSize) {
      const { rows, total } = await this.grid.rows({ ...view, offset, limit: this.pageSize });
      // A page's rows come without their notes (the grid reads them for the cells on screen).
      if (rows.length > 0) yield await this.grid.withNotes(view, rows);
      if (rows.length < this.pageSize || offset + rows.length >= total) return;
    }
  }

  async *csv(scope: AccessScope, query: GridExportQuery, locale: ExportLocale): AsyncGenerator<string> {
    const columns = exportColumns(query.viewLevel, query.drillDown, locale.currency);
    // A byte-order mark lets spreadsheet programs read the UTF-8 (Naïve_…) correctly.
    yield `\uFEFF${csvHeader(columns)}`;
    for await (const rows of this.gridPages(scope, query)) {
      yield rows.map((row) => csvRow(columns, row)).join('');
    }
  }

  /**
   * Quick Export to Excel: one sheet with the grid's columns, frozen header, numbers formatted in
   * the user's grouping. Written as sheet XML page by page (xlsx-writer.ts), not through exceljs
   * row and cell objects: at a million records those objects were what the memory held.
   */
  async writeGridXlsx(
    scope: AccessScope,
    query: GridExportQuery,
    out: Writable,
    locale: ExportLocale,
  ): Promise<void> {
    const columns = exportColumns(query.viewLevel, query.drillDown, locale.currency);
    const book = new XlsxStreamWriter(out);
    const kinds = columns.map((c): XlsxKind => c.kind);
    const formatters = kinds.map((kind) => numberFormatter(kind, locale, (numFmt) => book.style({ numFmt })));
    const pages = async function* (this: ExportService): AsyncGenerator<XlsxValue[][]> {
      for await (const rows of this.gridPages(scope, query)) {
        yield rows.map((row) => columns.map((c, i) => xlsxCell(c.value(row), kinds[i]!)));
      }
    }.call(this);
    await book.writeTable(
      {
        name: SHEET_NAMES.view,
        columns: columns.map((c, i) => ({ header: c.header, width: widthFor(c.header, kinds[i]!) })),
        headerStyle: book.style({ bold: true, fill: HEADER_ARGB, numFmt: TEXT_FORMAT }),
        styleOf: (i, value) => (typeof value === 'number' ? (formatters[i]?.(value) ?? 0) : 0),
      },
      pages,
    );
    await book.finish('Planning Suite');
  }

  /** How many SKU rows a Detailed Export of these filters holds. */
  async detailedRowCount(scope: AccessScope, query: GridExportQuery): Promise<number> {
    return countProducts(this.db, this.grid.filtersOf(scope, query));
  }

  /**
   * Detailed Export: the data sheet (what was exported and its filters on rows 1–8, the export
   * rows' header on DATA_SHEET_HEADER_ROW, frozen), the summary sheet and the import template.
   */
  async writeDetailedXlsx(
    scope: AccessScope,
    query: GridExportQuery,
    out: Writable,
    now: Date,
    locale: ExportLocale,
  ): Promise<void> {
    const { currency } = locale;
    const horizon = horizonOf(now);
    const filters = this.grid.filtersOf(scope, query);
    const workbook = workbookWriter(out);
    const sheet = workbook.addWorksheet(SHEET_NAMES.data, {
      views: [{ state: 'frozen', ySplit: DATA_SHEET_HEADER_ROW, xSplit: 1 }],
    });
    const formatters = EXPORT_ROW_COLUMNS.map((c) => numberFormatter(c.kind, locale, (numFmt) => numFmt));
    // A column carries the format of its usual values; a cell that needs another (an Indian
    // negative, or 100 crore and more) gets its own.
    const columnFormats = formatters.map((format) => format?.(0));
    sheet.columns = EXPORT_ROW_COLUMNS.map((c, i) => ({
      key: c.key,
      width: widthFor(c.key, c.kind),
      style: columnFormats[i] ? { numFmt: columnFormats[i] } : {},
    }));
    const all = (values: string[] | undefined) =>
      values?.length ? values.map(neutraliseText).join(', ') : 'All';
    const about: Array<[string, string]> = [
      ['Demand Planning Detailed Export', ''],
      [
        'Exported',
        `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC by ${neutraliseText(scope.userName)}`,
      ],
      ['Clients', filters.clientIds.join(', ')],
      ['Business Unit', all(query.bu)],
      ['Product Family', all(query.pf)],
      ['Region', all(query.region)],
      ['Search', query.search ? neutraliseText(query.search) : 'None'],
      [
        'ExportHorizon',
        `W1 = week of ${horizon.first}, W52 = week of ${horizon.last} (Q = 13 weeks, M = 4 weeks)`,
      ],
      ['Currency', currencyStatement(currency)],
    ];
    for (const [label, value] of about) {
      const row = sheet.addRow([label, value]);
      row.getCell(1).font = BOLD;
      // The block above the header is text, whatever the data columns' formats are.
      row.getCell(2).numFmt = TEXT_FORMAT;
      row.commit();
    }
    for (let blank = about.length + 1; blank < DATA_SHEET_HEADER_ROW; blank += 1) sheet.addRow([]).commit();
    headerRow(sheet.addRow(EXPORT_ROW_COLUMNS.map((c) => c.key)));

    const summary = emptySummary();
    for (let after: string | null = null; ;) {
      const pids = await productKeysAfter(this.db, filters, after, DETAILED_PRODUCTS_PER_PAGE);
      if (pids.length === 0) break;
      const [products, weekRows] = await Promise.all([
        productsOf(this.db, pids),
        weeksOf(this.db, pids, horizon.first, horizon.last),
      ]);
      const weeksByPid = new Map<string, ExportWeek[]>();
      for (const w of weekRows) {
        const list = weeksByPid.get(w.pid) ?? [];
        list.push({
          timeSeriesSk: w.sk,
          forecast: w.forecast,
          final: w.final,
          finalRevenue: w.final_revenue,
          overridden: w.overridden,
        });
        weeksByPid.set(w.pid, list);
      }
      for (const p of products) {
        const weeks = weeksByPid.get(p.pid) ?? [];
        const row = buildExportRow(
          horizon,
          {
            pid: p.pid,
            category: p.pf,
            businessUnit: p.bu,
            region: p.region,
            site: p.site,
            plannerName: p.planner_name,
            notes: p.notes,
            unitPrice: p.unit_price,
            lastModified: p.last_updated_at === null ? null : new Date(p.last_updated_at).toISOString(),
          },
          weeks,
        );
        addToSummary(summary, row, quarterPlansOf(horizon, weeks));
        const values = EXPORT_ROW_COLUMNS.map((c) =>
          xlsxCell(
            c.kind === 'money' ? exportMoney(row[c.key] as number | null, currency) : row[c.key],
            c.kind,
          ),
        );
        const added = sheet.addRow(values);
        values.forEach((value, i) => {
          if (typeof value !== 'number') return;
          const format = formatters[i]?.(value);
          if (format !== undefined && format !== columnFormats[i]) added.getCell(i + 1).numFmt = format;
        });
        added.commit();
      }
      await drained(out);
      if (pids.length < DETAILED_PRODUCTS_PER_PAGE) break;
      after = pids.at(-1)!;
    }
    sheet.commit();
    writeSummarySheet(workbook.addWorksheet(SHEET_NAMES.summary), summary, horizon, about, locale);
    writeTemplateSheet(
      workbook.addWorksheet(SHEET_NAMES.template, { views: [{ state: 'frozen', ySplit: 1 }] }),
    );
    await workbook.commit();
  }

  /** Template Download: the template sheet first (import reads the first sheet), then the instructions. */
  async writeTemplateXlsx(out: Writable): Promise<void> {
    const workbook = workbookWriter(out);
    writeTemplateSheet(
      workbook.addWorksheet(SHEET_NAMES.template, { views: [{ state: 'frozen', ySplit: 1 }] }),
    );
    const sheet = workbook.addWorksheet(SHEET_NAMES.instructions);
    sheet.columns = [{ key: 'text', width: 100 }];
    TEMPLATE_INSTRUCTIONS.forEach((line, i) => {
      const row = sheet.addRow([line]);
      if (i === 0) row.font = { bold: true, size: 14 };
      row.commit();
    });
    sheet.commit();
    await workbook.commit();
  }
}

function headerRow(row: ExcelJS.Row): void {
  row.eachCell((cell) => {
    cell.font = BOLD;
    cell.fill = HEADER_FILL;
    cell.numFmt = TEXT_FORMAT;
  });
  row.commit();
}

function writeTemplateSheet(sheet: ExcelJS.Worksheet): void {
  sheet.columns = TEMPLATE_COLUMNS.map((key) => ({
    key,
    width: widthFor(key, /^(forecast|override)/.test(key) ? 'units' : 'text'),
  }));
  const row = sheet.addRow([...TEMPLATE_COLUMNS]);
  row.eachCell((cell, column) => {
    cell.font = BOLD;
    const required = (TEMPLATE_REQUIRED_COLUMNS as readonly string[]).includes(TEMPLATE_COLUMNS[column - 1]!);
    cell.fill = required ? REQUIRED_FILL : HEADER_FILL;
  });
  row.commit();
  sheet.commit();
}

function writeSummarySheet(
  sheet: ExcelJS.Worksheet,
  summary: ExportSummary,
  horizon: ReturnType<typeof horizonOf>,
  about: Array<[string, string]>,
  locale: ExportLocale,
): void {
  const identity = (numFmt: string) => numFmt;
  const money = numberFormatter('money', locale, identity)!;
  const units = numberFormatter('units', locale, identity)!;
  const percent = numberFormatter('percent', locale, identity)!;
  sheet.columns = [
    { key: 'label', width: 34 },
    { key: 'a', width: 22 },
    { key: 'b', width: 22 },
    { key: 'c', width: 40 },
  ];
  type Format = ((value: number) => string) | undefined;
  const add = (values: unknown[], formats: Format[] = [], bold = false) => {
    const row = sheet.addRow(values);
    formats.forEach((format, i) => {
      const value = values[i];
      if (format && typeof value === 'number') row.getCell(i + 1).numFmt = format(value);
    });
    if (bold) row.font = BOLD;
    row.commit();
  };
  add(['Demand Planning Summary'], [], true);
  for (const [label, value] of about.slice(1)) {
    const row = sheet.addRow([label, value]);
    row.getCell(2).numFmt = TEXT_FORMAT;
    row.commit();
  }
  add([]);
  add(['SKUs', summary.skus], [undefined, units]);
  add(['Total Forecast (units)', summary.totalForecast], [undefined, units]);
  add(['Total Final Plan (units)', summary.totalOverride], [undefined, units]);
  add(['Variance (units)', summary.variance], [undefined, units]);
  add(['Variance %', summary.variancePercent], [undefined, percent]);
  // Converted after summing: the summary's money is the converted total of the rows' dollars.
  add(
    ['Forecast Revenue at list price', exportMoney(summary.totalForecastRevenue, locale.currency)],
    [undefined, money],
  );
  add(['Final Plan Revenue', exportMoney(summary.totalPlanRevenue, locale.currency)], [undefined, money]);
  add([]);
  add(['Quarter', 'Forecast (units)', 'Final Plan (units)', 'Weeks'], [], true);
  summary.quarters.forEach((quarter, i) => {
    const weeks = weeksOfPeriod(horizon, 'Q', i + 1);
    add(
      [`Q${i + 1}`, quarter.forecast, quarter.plan, `${skToIso(weeks[0]!)} to ${skToIso(weeks.at(-1)!)}`],
      [undefined, units, units],
    );
  });
  sheet.commit();
}

const skToIso = (sk: string): string => `${sk.slice(0, 4)}-${sk.slice(4, 6)}-${sk.slice(6, 8)}`;
