import type { FlowRow } from '@ps/domain';

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

/**
 * The flows shown in the table as an .xlsx workbook (exceljs, loaded on first export so the page
 * does not carry it): one sheet, a bold frozen header, numbers as numbers with formats.
 */
export async function exportFlowsToXlsx(
  rows: readonly FlowRow[],
  labels: FlowSheetLabels,
  fileName: string,
): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(labels.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: labels.leg, key: 'leg', width: 12 },
    { header: labels.from, key: 'from', width: 22 },
    { header: labels.to, key: 'to', width: 22 },
    { header: labels.family, key: 'family', width: 24 },
    { header: labels.period, key: 'period', width: 10 },
    { header: labels.units, key: 'units', width: 14, style: { numFmt: '#,##0.000' } },
    { header: labels.cost, key: 'cost', width: 16, style: { numFmt: '"$"#,##0.00' } },
    { header: labels.leadTime, key: 'leadTimeDays', width: 14 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    sheet.addRow({ ...row, leg: row.leg === 'inbound' ? labels.inbound : labels.outbound });
  }
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
