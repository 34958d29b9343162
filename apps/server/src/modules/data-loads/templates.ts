import { DATA_LOAD_LAYOUTS, type DataLoadEntity } from '@ps/domain';
import ExcelJS from 'exceljs';

const csvField = (value: string): string =>
  /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/** An entity's template: the layout's header and one example row. */
export function templateCsv(entity: DataLoadEntity): string {
  const columns = DATA_LOAD_LAYOUTS[entity].columns;
  return [columns.map((c) => csvField(c.header)), columns.map((c) => csvField(c.example))]
    .map((row) => row.join(','))
    .join('\r\n')
    .concat('\r\n');
}

/** The same as a workbook: the template on its first sheet, what each column holds on a second. */
export async function templateXlsx(entity: DataLoadEntity): Promise<Buffer> {
  const layout = DATA_LOAD_LAYOUTS[entity];
  const workbook = new ExcelJS.Workbook();
  const data = workbook.addWorksheet(layout.title);
  data.addRow(layout.columns.map((c) => c.header)).font = { bold: true };
  data.addRow(layout.columns.map((c) => c.example));
  data.columns.forEach((column) => (column.width = 18));
  const notes = workbook.addWorksheet('Columns');
  notes.addRow(['Column', 'Required', 'Also accepted as', 'What it holds']).font = { bold: true };
  for (const column of layout.columns)
    notes.addRow([
      column.header,
      column.required ? 'yes' : 'no',
      column.aliases.join(', '),
      column.description,
    ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
