import type { AggregatedRow, GridCell, GridCellNotes, GridPage } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { fetchGridNotes } from '../api/demand-planning.api';
import { gridQueryParams, type GridRequest } from '../utils/grid-query';

const isAggregated = (row: GridPage['rows'][number]): row is AggregatedRow => 'recordCount' in row;

/** The cell a roll-up row shows: its group (as its level names it) and period. */
function cellOf(row: AggregatedRow): GridCell {
  const group = row.viewLevel === 'business_unit' ? row.BU : row.viewLevel === 'category' ? row.PF : row.PID;
  return { group: group ?? '', periodKey: row.periodKey ?? '' };
}

/**
 * The page on screen with its roll-up rows' notes (comment count, comments, reason codes): the
 * page comes without them, and they are read for its cells once it is there, in one keyed read
 * (the notes of a coarse page's cells cost more than its figures). Until they arrive the rows show
 * no notes. `request` is the request the page answered. The read is cached under the grid pages'
 * key prefix, so what reloads the grid's pages (a live update, Refresh) reads the notes again.
 */
export function useGridNotes(
  page: GridPage | null,
  request: GridRequest,
  keyPrefix: readonly string[],
): GridPage | null {
  const { dataRefreshInterval } = useUserSettings().settings;
  const rows = useMemo(() => (page ? page.rows.filter(isAggregated) : []), [page]);
  const cells = useMemo(() => rows.map(cellOf), [rows]);
  const params = gridQueryParams({ ...request, sort: null, offset: undefined, limit: undefined }).toString();
  const notes = useQuery({
    queryKey: [...keyPrefix, params, 'notes', rows.map((row) => row.id).join('\n')],
    enabled: cells.length > 0,
    refetchInterval: Number(dataRefreshInterval) * 1000,
    queryFn: ({ signal }) => fetchGridNotes(request, cells, signal),
  });
  const data = notes.data;
  return useMemo(() => {
    if (!page || !data) return page;
    const byId = new Map<string, GridCellNotes>(data.map((cell) => [cell.id, cell]));
    return {
      ...page,
      rows: page.rows.map((row) => {
        // A row that carries its notes (a save's answer put into the page) keeps them.
        if (!isAggregated(row) || row.commentCount !== null) return row;
        const cell = byId.get(row.id);
        return cell ? { ...row, ...cell } : row;
      }),
    };
  }, [page, data]);
}
