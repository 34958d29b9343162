import {
  excelNumberFormat,
  exportMoney,
  moneyStyle,
  type ExportCurrency,
  type FlowRow,
  type NumberFormat,
} from '@ps/domain';
import type ExcelJS from 'exceljs';

export type FlowSheetLabels = {
  sheet: string;
  leg: string;
  from: string;
  to: string;
  family: string;
  period: string;
  units: string;
  cost: string;
  leadTime: string;
  inbound: string;
  outbound: string;
};

/** How the sheet writes money and numbers: as the screen shows them. */
export type FlowSheetLocale = {
  /** The currency and rate the screen converts dollars with. */
  currency: ExportCurrency;
  numberFormat: NumberFormat;
  /** The screen's note on which currency and rate it used (none for dollars). */
  note: string | null;
};

const COST_COLUMN = 7;
const UNITS_COLUMN = 6;

/**
 * The flows shown in the table as a workbook: one sheet, a bold frozen header, numbers as numbers.
 * Cost is converted from dollars with the screen's rate (to the cent) and carries the currency's
 * symbol; every number is grouped as the user reads numbers (lakh/crore included); the currency
 * note follows the table, as it follows the screen's tables.
 */
export async function flowsWorkbook(
  rows: readonly FlowRow[],
  labels: FlowSheetLabels,
  locale: FlowSheetLocale,
): Promise<ExcelJS.Workbook> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(labels.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  const money = moneyStyle(locale);
  const units = { numberFormat: locale.numberFormat, decimals: 3 };
  sheet.columns = [
    { header: labels.leg, key: 'leg', width: 12 },
    { header: labels.from, key: 'from', width: 22 },
    { header: labels.to, key: 'to', width: 22 },
    { header: labels.family, key: 'family', width: 24 },
    { header: labels.period, key: 'period', width: 10 },
    { header: labels.units, key: 'units', width: 14 },
    { header: labels.cost, key: 'cost', width: 18 },
    { header: labels.leadTime, key: 'leadTimeDays', width: 14 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const cost = exportMoney(row.cost, locale.currency);
    const added = sheet.addRow({
      ...row,
      leg: row.leg === 'inbound' ? labels.inbound : labels.outbound,
      cost,
    });
    added.getCell(UNITS_COLUMN).numFmt = excelNumberFormat(row.units, units);
    added.getCell(COST_COLUMN).numFmt = excelNumberFormat(cost, money);
  }
  if (locale.note) {
    sheet.addRow([]);
    sheet.addRow([locale.note]);
  }
  return workbook;
}

/** Builds the workbook and hands it to the browser as a download. */
export async function exportFlowsToXlsx(
  rows: readonly FlowRow[],
  labels: FlowSheetLabels,
  locale: FlowSheetLocale,
  fileName: string,
): Promise<void> {
  const workbook = await flowsWorkbook(rows, labels, locale);
  const buffer = await workbook.xlsx.writeBuffer();
  const url = URL.createObjectURL(
    new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}
