import type { TimePhasedPage } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import {
  cleanPastedFigure,
  isEditableCell,
  moveBy,
  parseClipboardText,
  pasteAt,
  planRowsOf,
  rangeOf,
  rangeToClipboardText,
} from '../time-phased/time-phased-grid';

const values = (n: number) => Array.from({ length: 3 }, (_, i) => n + i);
const item = (group: string, base: number) => ({
  group,
  recordCount: 12,
  values: {
    actuals: values(base),
    statistical: values(base + 10),
    prelim: values(base + 20),
    final: values(base + 30),
    p1: values(base + 40),
    finalMinusP1: [-10, -10, -10],
    revOverridePercent: [null, null, null],
    revOverrideUnits: [null, 5, null],
    sopOverridePercent: [null, null, null],
    sopOverrideUnits: [null, null, 7],
  },
});
const page: TimePhasedPage = {
  viewLevel: 'category',
  bucket: 'monthly',
  currentWeek: '2026-11-22',
  periods: [
    { key: '2026-10', label: '10/2026', isPast: true },
    { key: '2026-11', label: '11/2026', isPast: false },
    { key: '2026-12', label: '12/2026', isPast: false },
  ],
  items: [item('Fuel Controls', 100), item('Valves', 200)],
  totalItems: 2,
  offset: 0,
  limit: 10,
};
const rows = planRowsOf(page);
// Rows: 0–9 Fuel Controls (7 = Rev units, 9 = S&OP units), 10–19 Valves.

describe('the time-phased grid model', () => {
  it('lays every item out as its ten measure rows, the overrides editable in open periods only', () => {
    expect(rows).toHaveLength(20);
    expect(rows[3]).toMatchObject({
      item: 'Fuel Controls',
      measure: 'final',
      field: null,
      values: [130, 131, 132],
    });
    expect(rows[17]).toMatchObject({
      item: 'Valves',
      measure: 'revOverrideUnits',
      field: 'Rev_Pln_Ovrd_Units',
    });
    expect(isEditableCell(rows, page.periods, { row: 7, col: 1 })).toBe(true);
    expect(isEditableCell(rows, page.periods, { row: 7, col: 0 })).toBe(false); // past
    expect(isEditableCell(rows, page.periods, { row: 3, col: 1 })).toBe(false); // Final is read-only
    expect(isEditableCell(rows, page.periods, { row: 20, col: 1 })).toBe(false); // outside
  });

  it('moves the cursor one cell, never off the grid', () => {
    const size = { rows: 20, cols: 3 };
    expect(moveBy({ row: 0, col: 0 }, 'up', size)).toEqual({ row: 0, col: 0 });
    expect(moveBy({ row: 0, col: 2 }, 'right', size)).toEqual({ row: 0, col: 2 });
    expect(moveBy({ row: 5, col: 1 }, 'down', size)).toEqual({ row: 6, col: 1 });
    expect(moveBy({ row: 5, col: 1 }, 'left', size)).toEqual({ row: 5, col: 0 });
    expect(rangeOf({ row: 5, col: 2 }, { row: 3, col: 1 })).toEqual({ top: 3, left: 1, bottom: 5, right: 2 });
  });

  it('reads Excel text (CRLF, a final line break, tabs) and writes a range back the same way', () => {
    expect(parseClipboardText('1\t2\t3\r\n4\t5\t6\r\n')).toEqual([
      ['1', '2', '3'],
      ['4', '5', '6'],
    ]);
    expect(parseClipboardText('42')).toEqual([['42']]);
    expect(rangeToClipboardText(rows, { top: 6, left: 1, bottom: 7, right: 2 })).toBe('\t\n5\t\n');
    expect(rangeToClipboardText(rows, { top: 0, left: 0, bottom: 0, right: 2 })).toBe('100\t101\t102\n');
    expect(cleanPastedFigure(' 1,250 ')).toBe('1250');
    expect(cleanPastedFigure('12.5%')).toBe('12.5');
  });

  it('pastes a 3 × 2 block from the cursor into open override cells, in reading order', () => {
    const outcome = pasteAt(rows, page.periods, { row: 7, col: 1 }, [
      ['10', '11'],
      ['12', '13'],
      ['14', '15'],
    ]);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.cells.map((c) => [c.row, c.col, c.field, c.raw])).toEqual([
      [7, 1, 'Rev_Pln_Ovrd_Units', '10'],
      [7, 2, 'Rev_Pln_Ovrd_Units', '11'],
      [8, 1, 'SOP_Pln_Ovrd_Percent', '12'],
      [8, 2, 'SOP_Pln_Ovrd_Percent', '13'],
      [9, 1, 'SOP_Pln_Ovrd_Units', '14'],
      [9, 2, 'SOP_Pln_Ovrd_Units', '15'],
    ]);
    expect(outcome.cells.every((c) => c.item === 'Fuel Controls')).toBe(true);
  });

  it('refuses a whole paste that reaches a past period, a read-only row or past the grid', () => {
    expect(pasteAt(rows, page.periods, { row: 7, col: 0 }, [['1', '2']])).toEqual({
      ok: false,
      reason: 'not-editable',
      at: { row: 7, col: 0 },
    });
    // Rows 9 → 10 run from the S&OP units of one item into the Actuals of the next.
    expect(pasteAt(rows, page.periods, { row: 9, col: 1 }, [['1'], ['2']])).toMatchObject({
      ok: false,
      reason: 'not-editable',
      at: { row: 10, col: 1 },
    });
    expect(pasteAt(rows, page.periods, { row: 7, col: 2 }, [['1', '2']])).toMatchObject({
      ok: false,
      reason: 'outside',
      at: { row: 7, col: 3 },
    });
  });
});
