import type { TimePhasedMeasure, TimePhasedPeriod } from '@ps/domain';
import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';
import {
  isEditableCell,
  isInRange,
  moveBy,
  parseClipboardText,
  pasteAt,
  rangeOf,
  rangeToClipboardText,
  type CellPos,
  type Move,
  type PastedCell,
  type PlanRow,
} from './time-phased-grid';

/** Catalogue keys of the measure rows' names. */
const MEASURE_LABEL_KEYS: Record<TimePhasedMeasure, string> = {
  actuals: 'timePhased:measure.actuals',
  statistical: 'timePhased:measure.statistical',
  prelim: 'timePhased:measure.prelim',
  final: 'timePhased:measure.final',
  p1: 'timePhased:measure.p1',
  finalMinusP1: 'timePhased:measure.finalMinusP1',
  revOverridePercent: 'timePhased:measure.revOverridePercent',
  revOverrideUnits: 'timePhased:measure.revOverrideUnits',
  sopOverridePercent: 'timePhased:measure.sopOverridePercent',
  sopOverrideUnits: 'timePhased:measure.sopOverrideUnits',
};

const ARROWS: Record<string, Move> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};

type TimePhasedGridProps = {
  rows: PlanRow[];
  periods: TimePhasedPeriod[];
  /** Values typed or pasted and waiting for confirmation, by "row:col". */
  pending: ReadonlyMap<string, string>;
  /** A refused value: its cell and the reason, shown at the cell. */
  refused: { at: CellPos; reason: string } | null;
  /** Committed edits (a typed cell or a pasted block) to check and confirm. */
  onEdit: (cells: PastedCell[]) => void;
  /** A paste that cannot land: the block reaches past the grid or into a read-only cell. */
  onPasteRefused: (reason: 'outside' | 'not-editable', at: CellPos) => void;
};

/**
 * The time-phased grid: items × measures down, periods across, past periods shaded and split
 * from the open ones by a rule. Spreadsheet keys: arrows move (Shift extends a range), Enter or
 * F2 edits and Enter commits and moves down, Tab commits and moves right, typing replaces the
 * value, Escape cancels; Ctrl+C copies the range as tab-separated text and a paste from Excel
 * writes a block from the cursor.
 */
export function TimePhasedGrid({
  rows,
  periods,
  pending,
  refused,
  onEdit,
  onPasteRefused,
}: TimePhasedGridProps) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const [cursor, setCursor] = useState<CellPos>({ row: 0, col: firstOpenColumn(periods) });
  const [anchor, setAnchor] = useState<CellPos | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const size = { rows: rows.length, cols: periods.length };
  const range = rangeOf(anchor ?? cursor, cursor);
  const firstOpen = firstOpenColumn(periods);

  // A new page or bucket can have fewer rows or columns: keep the cursor on the grid.
  const safeCursor = {
    row: Math.min(cursor.row, Math.max(size.rows - 1, 0)),
    col: Math.min(cursor.col, Math.max(size.cols - 1, 0)),
  };
  if (safeCursor.row !== cursor.row || safeCursor.col !== cursor.col) setCursor(safeCursor);

  useEffect(() => {
    if (draft !== null) inputRef.current?.focus();
  }, [draft]);
  useEffect(() => {
    gridRef.current
      ?.querySelector<HTMLElement>(`[data-cell="${cursor.row}:${cursor.col}"]`)
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [cursor]);

  // The view opens on the current period: the closed ones are scrolled out to the left, one
  // scroll away, so the screen is given to the periods that can still be planned.
  const firstOpenKey = periods[firstOpen]?.key;
  useEffect(() => {
    const grid = gridRef.current;
    const header = grid?.querySelector<HTMLElement>(`thead th[data-period="${firstOpenKey}"]`);
    if (!grid || !header) return;
    const labels = grid.querySelectorAll<HTMLElement>('thead th[data-label-column]');
    const labelsRight = Math.max(...Array.from(labels, (th) => th.getBoundingClientRect().right));
    grid.scrollLeft += header.getBoundingClientRect().left - labelsRight;
  }, [firstOpenKey]);

  const go = (next: CellPos, isExtending = false) => {
    setAnchor(isExtending ? (anchor ?? cursor) : null);
    setCursor(next);
  };
  const commit = (then: Move | null) => {
    if (draft === null) return;
    const row = rows[cursor.row]!;
    onEdit([{ ...cursor, item: row.item, field: row.field!, raw: draft.trim() }]);
    setDraft(null);
    gridRef.current?.focus();
    if (then) go(moveBy(cursor, then, size));
  };
  const cancel = () => {
    setDraft(null);
    gridRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (draft !== null) {
      if (event.key === 'Enter') commit('down');
      else if (event.key === 'Tab') commit(event.shiftKey ? 'left' : 'right');
      else if (event.key === 'Escape') cancel();
      else return;
      event.preventDefault();
      return;
    }
    const arrow = ARROWS[event.key];
    const isEditable = isEditableCell(rows, periods, cursor);
    if (arrow) go(moveBy(cursor, arrow, size), event.shiftKey);
    else if (event.key === 'Tab') go(moveBy(cursor, event.shiftKey ? 'left' : 'right', size));
    else if ((event.key === 'Enter' || event.key === 'F2') && isEditable) {
      const value = rows[cursor.row]!.values[cursor.col];
      setDraft(
        pending.get(`${cursor.row}:${cursor.col}`) ??
          (value === null || value === undefined ? '' : String(value)),
      );
    } else if (event.key === 'Enter') go(moveBy(cursor, 'down', size));
    else if (event.key === 'Escape') setAnchor(null);
    // Typing a character replaces the value, as in a spreadsheet.
    else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && isEditable)
      setDraft(event.key);
    else return;
    event.preventDefault();
  };

  const onCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    if (draft !== null) return;
    event.clipboardData.setData('text/plain', rangeToClipboardText(rows, range));
    event.preventDefault();
  };
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (draft !== null) return;
    event.preventDefault();
    const block = parseClipboardText(event.clipboardData.getData('text/plain'));
    const outcome = pasteAt(rows, periods, { row: range.top, col: range.left }, block);
    if (!outcome.ok) {
      onPasteRefused(outcome.reason, outcome.at);
      return;
    }
    onEdit(outcome.cells);
    const last = outcome.cells[outcome.cells.length - 1]!;
    setAnchor({ row: range.top, col: range.left });
    setCursor({ row: last.row, col: last.col });
  };

  return (
    <div
      ref={gridRef}
      role="grid"
      aria-label={t('timePhased:gridLabel')}
      aria-rowcount={rows.length + 1}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onCopy={onCopy}
      onPaste={onPaste}
      data-testid="time-phased-grid"
      className="max-h-[700px] overflow-auto rounded-md border border-border text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table className="border-separate border-spacing-0">
        <thead className="sticky top-0 z-20 bg-card">
          <tr>
            <th
              data-label-column
              className="sticky left-0 z-30 min-w-40 border-b border-border bg-card px-2 py-1 text-left"
            >
              {t('timePhased:item')}
            </th>
            <th
              data-label-column
              className="sticky left-40 z-30 min-w-44 border-r border-b border-border bg-card px-2 py-1 text-left"
            >
              {t('timePhased:measureColumn')}
            </th>
            {periods.map((period, col) => (
              <th
                key={period.key}
                scope="col"
                data-period={period.key}
                data-past={period.isPast}
                title={period.isPast ? t('timePhased:pastTooltip') : t('timePhased:openTooltip')}
                className={cn(
                  'min-w-24 border-b border-border px-2 py-1 text-right font-medium whitespace-nowrap',
                  period.isPast ? 'bg-muted text-muted-foreground' : 'bg-card',
                  col === firstOpen && col > 0 && 'border-l-4 border-l-primary',
                )}
              >
                <span className="block text-[10px] font-normal tracking-wide uppercase">
                  {period.isPast ? t('timePhased:past') : t('timePhased:open')}
                </span>
                {period.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => {
            const isFirstOfItem = r === 0 || rows[r - 1]!.item !== row.item;
            return (
              <tr
                key={`${row.item}:${row.measure}`}
                className={cn(isFirstOfItem && r > 0 && '[&>*]:border-t-2 [&>*]:border-t-border')}
              >
                <th
                  scope="row"
                  className="sticky left-0 z-10 max-w-40 truncate bg-card px-2 py-0.5 text-left font-medium"
                  title={row.item}
                >
                  {isFirstOfItem ? row.item : ''}
                </th>
                <th
                  scope="row"
                  className={cn(
                    'sticky left-40 z-10 border-r border-border bg-card px-2 py-0.5 text-left font-normal whitespace-nowrap',
                    row.field && 'text-primary',
                  )}
                >
                  {t(MEASURE_LABEL_KEYS[row.measure])}
                </th>
                {periods.map((period, c) => {
                  const at = { row: r, col: c };
                  const key = `${r}:${c}`;
                  const isCursor = cursor.row === r && cursor.col === c;
                  const isEditable = isEditableCell(rows, periods, at);
                  const isRefused = refused?.at.row === r && refused.at.col === c;
                  const waiting = pending.get(key);
                  const value = row.values[c];
                  return (
                    <td
                      key={period.key}
                      data-cell={key}
                      data-testid={`tp-cell-${row.item}-${row.measure}-${period.key}`}
                      aria-selected={isInRange(range, at)}
                      aria-readonly={!isEditable}
                      title={isRefused ? refused.reason : undefined}
                      onMouseDown={(event) => {
                        go(at, event.shiftKey);
                        if (draft !== null) cancel();
                      }}
                      onDoubleClick={() =>
                        isEditable && setDraft(value === null || value === undefined ? '' : String(value))
                      }
                      className={cn(
                        'h-7 px-2 text-right tabular-nums',
                        period.isPast && 'bg-muted/60 text-muted-foreground',
                        c === firstOpen && c > 0 && 'border-l-4 border-l-primary',
                        isEditable && 'dp-cell-editable',
                        isInRange(range, at) && anchor !== null && 'bg-primary/15',
                        waiting !== undefined && 'dp-cell-changed',
                        isRefused && 'dp-cell-invalid',
                        isCursor && 'outline-2 -outline-offset-2 outline-primary',
                      )}
                    >
                      {isCursor && draft !== null ? (
                        <input
                          ref={inputRef}
                          value={draft}
                          onChange={(event) => setDraft(event.target.value)}
                          aria-label={t('timePhased:editLabel', {
                            measure: t(MEASURE_LABEL_KEYS[row.measure]),
                            item: row.item,
                            period: period.label,
                          })}
                          className="w-full min-w-16 bg-background text-right outline-none"
                        />
                      ) : (
                        (waiting ?? formatValue(row.measure, value, fmt))
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The first period that is not past (where planning starts), or 0. */
function firstOpenColumn(periods: readonly TimePhasedPeriod[]): number {
  const index = periods.findIndex((period) => !period.isPast);
  return index < 0 ? 0 : index;
}

function formatValue(
  measure: TimePhasedMeasure,
  value: number | null | undefined,
  fmt: ReturnType<typeof useFormatters>,
): string {
  if (value === null || value === undefined) return '';
  return measure.endsWith('Percent') ? fmt.percent(value) : fmt.number(value);
}
