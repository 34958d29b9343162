import {
  editableFieldOf,
  TIME_PHASED_MEASURE_IDS,
  type OverrideField,
  type TimePhasedMeasure,
  type TimePhasedPage,
  type TimePhasedPeriod,
} from '@ps/domain';

/**
 * The time-phased grid as the keyboard and the clipboard see it: rows (one per item × measure)
 * and period columns, a cursor, a selected range, and the cells a paste would write. Pure, so
 * the rules are unit-tested apart from the component.
 */

export type PlanRow = {
  item: string;
  measure: TimePhasedMeasure;
  /** The override the row edits; null for a read-only measure. */
  field: OverrideField | null;
  values: ReadonlyArray<number | null>;
};

export type CellPos = { row: number; col: number };
export type CellRange = { top: number; left: number; bottom: number; right: number };

/** Every item's measure rows, in the page's order. */
export function planRowsOf(page: TimePhasedPage): PlanRow[] {
  return page.items.flatMap((item) =>
    TIME_PHASED_MEASURE_IDS.map((measure) => ({
      item: item.group,
      measure,
      field: editableFieldOf(measure),
      values: item.values[measure],
    })),
  );
}

/** A cell takes edits when its row is an override and its period is open (not past). */
export function isEditableCell(rows: readonly PlanRow[], periods: readonly TimePhasedPeriod[], at: CellPos) {
  const row = rows[at.row];
  const period = periods[at.col];
  return row !== undefined && period !== undefined && row.field !== null && !period.isPast;
}

export type Move = 'up' | 'down' | 'left' | 'right';

/** The cell one step away, kept inside the grid. */
export function moveBy(at: CellPos, move: Move, size: { rows: number; cols: number }): CellPos {
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), Math.max(max - 1, 0));
  switch (move) {
    case 'up':
      return { row: clamp(at.row - 1, size.rows), col: at.col };
    case 'down':
      return { row: clamp(at.row + 1, size.rows), col: at.col };
    case 'left':
      return { row: at.row, col: clamp(at.col - 1, size.cols) };
    case 'right':
      return { row: at.row, col: clamp(at.col + 1, size.cols) };
  }
}

/** The rectangle between the range's anchor (where it started) and the cursor. */
export function rangeOf(anchor: CellPos, cursor: CellPos): CellRange {
  return {
    top: Math.min(anchor.row, cursor.row),
    left: Math.min(anchor.col, cursor.col),
    bottom: Math.max(anchor.row, cursor.row),
    right: Math.max(anchor.col, cursor.col),
  };
}

export const isInRange = (range: CellRange, at: CellPos): boolean =>
  at.row >= range.top && at.row <= range.bottom && at.col >= range.left && at.col <= range.right;

/**
 * Text copied from a spreadsheet: rows by line, cells by tab (Excel and Google Sheets write
 * this); the line break that ends the last row is not another row.
 */
export function parseClipboardText(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

/** A range as spreadsheet text: tab between cells, a line break after each row; empty cells empty. */
export function rangeToClipboardText(rows: readonly PlanRow[], range: CellRange): string {
  const lines: string[] = [];
  for (let r = range.top; r <= range.bottom; r++) {
    const cells: string[] = [];
    for (let c = range.left; c <= range.right; c++) {
      const value = rows[r]?.values[c];
      cells.push(value === null || value === undefined ? '' : String(value));
    }
    lines.push(cells.join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A figure as a spreadsheet copies it: thousands separators, spaces and a trailing % go; the
 * rest is the number the cell's rules then check.
 */
export const cleanPastedFigure = (text: string): string => text.replace(/[\s,\u00a0]/g, '').replace(/%$/, '');

export type PastedCell = { row: number; col: number; item: string; field: OverrideField; raw: string };

export type PasteOutcome =
  | { ok: true; cells: PastedCell[] }
  /** `at` is the first cell that cannot take its value. */
  | { ok: false; reason: 'outside' | 'not-editable'; at: CellPos };

/**
 * Where a pasted block lands, its top left at the cursor: every cell it covers must be inside
 * the grid and editable, else nothing is pasted (a paste is one save, all or nothing).
 */
export function pasteAt(
  rows: readonly PlanRow[],
  periods: readonly TimePhasedPeriod[],
  at: CellPos,
  block: readonly string[][],
): PasteOutcome {
  const cells: PastedCell[] = [];
  for (let r = 0; r < block.length; r++) {
    for (let c = 0; c < block[r]!.length; c++) {
      const target = { row: at.row + r, col: at.col + c };
      if (target.row >= rows.length || target.col >= periods.length)
        return { ok: false, reason: 'outside', at: target };
      if (!isEditableCell(rows, periods, target)) return { ok: false, reason: 'not-editable', at: target };
      const row = rows[target.row]!;
      cells.push({ ...target, item: row.item, field: row.field!, raw: cleanPastedFigure(block[r]![c]!) });
    }
  }
  return { ok: true, cells };
}
