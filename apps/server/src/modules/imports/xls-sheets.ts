import { hasRequiredHeader, isBlankCell, type Cell } from '@ps/domain';
import type * as SheetJsModule from '@e965/xlsx';
import type { CellObject, WorkSheet } from '@e965/xlsx';
import { isDateFormat } from './xlsx-sheets';

/**
 * Excel 97-2003 workbooks (.xls, BIFF in an OLE container) read by SheetJS Community Edition
 * (@e965/xlsx: the official CDN build republished unchanged on npm; docs/spreadsheet-import.md).
 * It is loaded only here, in the parse worker, on the first .xls. A BIFF sheet holds at most
 * 65,536 rows, so reading it whole stays within the worker's budget.
 */

const DAY_MS = 86_400_000;

type SheetJs = typeof SheetJsModule;
let sheetJs: Promise<SheetJs> | undefined;

/** Rows read from a sheet to find its header: our export writes its filters above it. */
const HEADER_SEARCH_ROWS = 30;

/**
 * Streams the import sheet's rows (the first named with "data" that has the required columns,
 * else the first that has them, else the first) into `onRow`, which returns false to stop.
 * Answers 'stopped' when it did, a problem when the file cannot be read, else undefined.
 */
export async function readXlsRows(
  buffer: Buffer,
  onRow: (cells: Cell[], row: number) => boolean,
): Promise<{ problem: string } | 'stopped' | undefined> {
  const XLSX = await (sheetJs ??= import('@e965/xlsx'));
  let workbook: ReturnType<SheetJs['read']>;
  try {
    workbook = XLSX.read(buffer, {
      type: 'buffer',
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      // Every cell's number format, to tell a date from a number.
      cellNF: true,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      problem: /password|encrypt/i.test(reason)
        ? 'The workbook is password-protected: remove its password in Excel, then import it'
        : `The file is not a valid .xls workbook: its contents cannot be read (${reason})`,
    };
  }
  const epochDays = workbook.Workbook?.WBProps?.date1904 ? 24107 : 25569;
  const sheets = workbook.SheetNames.map((name) => ({ name, sheet: workbook.Sheets[name] }));
  const rowsOf = (sheet: WorkSheet | undefined): Array<{ cells: Cell[]; row: number }> => {
    const data = (sheet?.['!data'] ?? []) as Array<CellObject[] | undefined>;
    const rows: Array<{ cells: Cell[]; row: number }> = [];
    data.forEach((row, index) => {
      if (row) rows.push({ cells: Array.from(row, (cell) => cellOf(cell, epochDays)), row: index + 1 });
    });
    for (const merge of sheet?.['!merges'] ?? []) {
      const top = rows.find((r) => r.row === merge.s.r + 1)?.cells[merge.s.c] ?? null;
      for (let r = merge.s.r; r <= merge.e.r; r++) {
        let target = rows.find((x) => x.row === r + 1);
        if (!target) {
          target = { cells: [], row: r + 1 };
          rows.push(target);
        }
        for (let c = merge.s.c; c <= merge.e.c; c++) {
          while (target.cells.length <= c) target.cells.push(null);
          target.cells[c] = top;
        }
      }
    }
    return rows.sort((a, b) => a.row - b.row);
  };
  const hasHeader = (rows: Array<{ cells: Cell[] }>): boolean =>
    rows
      .filter((r) => !r.cells.every(isBlankCell))
      .slice(0, HEADER_SEARCH_ROWS)
      .some((r) => hasRequiredHeader(r.cells));
  const ordered = [
    ...sheets.filter((s) => /data/i.test(s.name)),
    ...sheets.filter((s) => !/data/i.test(s.name)),
  ];
  const chosen = ordered.find((s) => hasHeader(rowsOf(s.sheet))) ?? sheets[0];
  for (const { cells, row } of rowsOf(chosen?.sheet)) if (!onRow(cells, row)) return 'stopped';
  return undefined;
}

function cellOf(cell: CellObject | undefined, epochDays: number): Cell {
  if (!cell) return null;
  switch (cell.t) {
    case 'n': {
      const value = cell.v as number;
      return typeof cell.z === 'string' && isDateFormat(cell.z)
        ? new Date(Math.round((value - epochDays) * DAY_MS))
        : value;
    }
    case 's':
      return String(cell.v ?? '');
    case 'b':
      return Boolean(cell.v);
    case 'd':
      return cell.v instanceof Date ? cell.v : null;
    case 'e':
      return cell.w ?? null;
    case 'z':
      return null;
  }
}
