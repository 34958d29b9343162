import type { AggregatedRow, GridCellNotes, GridPage } from '@ps/domain';

export const isAggregatedRow = (row: GridPage['rows'][number]): row is AggregatedRow => 'recordCount' in row;

/**
 * The page with its roll-up rows' notes put in, by row id. A row that already carries its notes (a
 * save's answer put into the cached page, read with them) keeps its own; a record is left as it is.
 */
export function withCellNotes(page: GridPage, notes: readonly GridCellNotes[]): GridPage {
  const byId = new Map(notes.map((cell) => [cell.id, cell]));
  return {
    ...page,
    rows: page.rows.map((row) => {
      if (!isAggregatedRow(row) || row.commentCount !== null) return row;
      const cell = byId.get(row.id);
      return cell ? { ...row, ...cell } : row;
    }),
  };
}
