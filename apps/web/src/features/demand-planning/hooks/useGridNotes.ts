import { gridCellOf, type GridPage } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { fetchGridNotes } from '../api/demand-planning.api';
import { gridQueryParams, type GridRequest } from '../utils/grid-query';
import { isAggregatedRow, withCellNotes } from '../utils/grid-notes';

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
  const rows = useMemo(() => (page ? page.rows.filter(isAggregatedRow) : []), [page]);
  const cells = useMemo(() => rows.map(gridCellOf), [rows]);
  const params = gridQueryParams({ ...request, sort: null, offset: undefined, limit: undefined }).toString();
  const notes = useQuery({
    queryKey: [...keyPrefix, params, 'notes', rows.map((row) => row.id).join('\n')],
    enabled: cells.length > 0,
    refetchInterval: Number(dataRefreshInterval) * 1000,
    queryFn: ({ signal }) => fetchGridNotes(request, cells, signal),
  });
  const data = notes.data;
  return useMemo(() => (page && data ? withCellNotes(page, data) : page), [page, data]);
}
