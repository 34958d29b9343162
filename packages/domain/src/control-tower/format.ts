import { formatNumber, isShowable, type NumberFormat } from '../format/numbers';
import type { SortDirection } from '../planning-grid';

/**
 * Tracker values (spec §9): null '-', size under 1 and not zero with 5 decimals, else 2, grouped
 * in the user's number format ('indian' groups lakhs and crores).
 */
export function formatTrackerValue(
  value: number | null | undefined,
  numberFormat: NumberFormat = 'us',
): string {
  if (!isShowable(value)) return '-';
  const decimals = value !== 0 && Math.abs(value) < 1 ? 5 : 2;
  return formatNumber(value, { numberFormat, decimals });
}

export type SortState<K extends string> = { column: K; direction: SortDirection } | null;

/** Spec §4: a column cycles unsorted → ascending → descending → unsorted; another column starts ascending. */
export function nextSort<K extends string>(state: SortState<K>, column: K): SortState<K> {
  if (!state || state.column !== column) return { column, direction: 'asc' };
  return state.direction === 'asc' ? { column, direction: 'desc' } : null;
}

/** Sorts rows by one column, nulls last in either direction (spec §4); stable for ties. */
export function sortRows<Row, K extends string>(
  rows: readonly Row[],
  state: SortState<K>,
  valueOf: (row: Row, column: K) => string | number | null,
): Row[] {
  if (!state) return [...rows];
  const factor = state.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: valueOf(row, state.column) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) {
        if (a.value === b.value) return a.index - b.index;
        return a.value === null ? 1 : -1;
      }
      const order =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value));
      return order === 0 ? a.index - b.index : order * factor;
    })
    .map((entry) => entry.row);
}

/**
 * The tracker's Fiscal Quarter multi-select (spec §4). `selected` null means Select All; the
 * choice 'all' is the Select All entry (quarters are yyyy-Qn, so it cannot clash).
 * Choosing Select All toggles everything; choosing a quarter leaves Select All, and choosing the
 * last missing one returns to it.
 */
export function toggleQuarter(
  selected: readonly string[] | null,
  choice: string,
  all: readonly string[],
): string[] | null {
  if (choice === 'all') return selected === null ? [] : null;
  const current = selected ?? [...all];
  const next = current.includes(choice) ? current.filter((q) => q !== choice) : [...current, choice];
  return all.every((q) => next.includes(q)) ? null : all.filter((q) => next.includes(q));
}

/** What the multi-select's button reads (spec §4). */
export function quarterSelectionLabel(
  selected: readonly string[] | null,
): { kind: 'all' } | { kind: 'none' } | { kind: 'one'; quarter: string } | { kind: 'many'; count: number } {
  if (selected === null) return { kind: 'all' };
  if (selected.length === 0) return { kind: 'none' };
  if (selected.length === 1) return { kind: 'one', quarter: selected[0]! };
  return { kind: 'many', count: selected.length };
}
