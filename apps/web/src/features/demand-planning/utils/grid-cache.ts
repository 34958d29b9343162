import type { AggregatedRow, DemandRecord, GridPage, GridRow } from '@ps/domain';
import { gridRowIdOf } from './pending-changes';

/** Query parameters that pick a page of a view or its order, not which rows the view sums. */
const PAGE_PARAMS = ['offset', 'limit', 'sortBy', 'sortDir'];

/**
 * The view a grid page's query parameters name: level, drill-down, filters and weeks, without its
 * page and sort. Two pages of one view hold the same roll-up rows, whatever their order.
 */
export function viewKeyOf(params: string): string {
  const view = new URLSearchParams(params);
  for (const name of PAGE_PARAMS) view.delete(name);
  view.sort();
  return view.toString();
}

/**
 * What a save answered with: the records as saved (a batch of cell edits), or the row of the cell
 * a spread was typed into, as its view (`viewParams`, the grid's query parameters) now sums it.
 */
export type SavedRows =
  | { kind: 'records'; records: readonly DemandRecord[] }
  | { kind: 'rollup'; viewParams: string; rows: readonly AggregatedRow[] };

/**
 * The cached page with the saved rows in place of the rows they replace, or the page itself when
 * it holds none of them (so a page the save did not touch is not drawn again). A record is the
 * same in every original-table page; a roll-up row only in the pages of its own view (a family
 * filtered by region sums other records than the same family unfiltered).
 */
export function withSavedRows(page: GridPage, pageParams: string, saved: SavedRows): GridPage {
  const isRecordPage = page.viewLevel === 'none' && page.drillDown === 'none';
  if (saved.kind === 'records' ? !isRecordPage : viewKeyOf(pageParams) !== viewKeyOf(saved.viewParams))
    return page;
  const fresh = new Map<string, GridRow>(
    (saved.kind === 'records' ? saved.records : saved.rows).map((row) => [gridRowIdOf(row), row]),
  );
  let isChanged = false;
  const rows = page.rows.map((row) => {
    const next = fresh.get(gridRowIdOf(row));
    if (!next) return row;
    isChanged = true;
    return next;
  });
  return isChanged ? { ...page, rows } : page;
}
