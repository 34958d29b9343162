import {
  spreadingEndpoints,
  type RollupViewLevel,
  type ReasonCode,
  type SpreadBatchRequest,
  type SpreadResult,
  type TimePhasedBucket,
  type TimePhasedPage,
} from '@ps/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { i18next } from '@/i18n/i18n';
import { callEndpoint } from '@/lib/api-client';
import {
  announceSpreadRefused,
  announceSpreadSaved,
  announceSpreadSaveFailed,
} from '../hooks/useAggregateEdit';
import { GRID_QUERY_PREFIX } from '../hooks/useGridPage';
import type { GridRequest } from '../utils/grid-query';
import { parseEditValue } from '../utils/edit-values';
import type { PastedCell } from './time-phased-grid';

export type TimePhasedRequest = Pick<GridRequest, 'bu' | 'pf' | 'region' | 'search'> & {
  viewLevel: RollupViewLevel;
  bucket: TimePhasedBucket;
  offset: number;
  limit: number;
};

function queryOf(request: TimePhasedRequest): Record<string, string> {
  const query: Record<string, string> = {
    viewLevel: request.viewLevel,
    bucket: request.bucket,
    offset: String(request.offset),
    limit: String(request.limit),
  };
  for (const key of ['bu', 'pf', 'region'] as const) {
    const values = request[key];
    if (values && values.length > 0) query[key] = values.join(',');
  }
  if (request.search?.trim()) query.search = request.search.trim();
  return query;
}

/**
 * One page of the time-phased view. Its key sits under the grid's, so whatever refreshes the grid
 * (a save, an undo, Refresh) refreshes this view too.
 */
export function useTimePhasedPage(request: TimePhasedRequest) {
  const query = queryOf(request);
  return useQuery({
    queryKey: [...GRID_QUERY_PREFIX, 'time-phased', new URLSearchParams(query).toString()],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }): Promise<TimePhasedPage> =>
      callEndpoint(spreadingEndpoints.timePhased, { query, signal }),
  });
}

/** Edits waiting for the planner's yes: the cells and what saving them would move. */
export type ProposedCells = { cells: PastedCell[]; request: SpreadBatchRequest; preview: SpreadResult };

export type CellRefusal = { cell: PastedCell; reason: string };

/**
 * Edits of the time-phased view: one typed cell or a pasted range is checked
 * cell by cell with the grid's rules, previewed by the server as one batch, and saved as one
 * transaction only after the planner confirms, as the table's aggregate edits are.
 */
export function useTimePhasedEdits(request: TimePhasedRequest) {
  const queryClient = useQueryClient();
  const [proposed, setProposed] = useState<ProposedCells | null>(null);

  const preview = useMutation({
    mutationFn: async ({ cells, batch }: { cells: PastedCell[]; batch: SpreadBatchRequest }) => ({
      cells,
      request: batch,
      preview: await callEndpoint(spreadingEndpoints.spreadBatch, { body: { ...batch, preview: true } }),
    }),
    onSuccess: setProposed,
    onError: announceSpreadRefused,
  });

  const save = useMutation({
    mutationFn: (batch: SpreadBatchRequest) =>
      callEndpoint(spreadingEndpoints.spreadBatch, { body: { ...batch, preview: false } }),
    onSuccess: async (result) => {
      setProposed(null);
      await announceSpreadSaved(queryClient, result);
    },
    onError: announceSpreadSaveFailed,
  });

  /**
   * Checks the cells and asks the server what they would move; answers the first refused cell
   * (nothing is sent then: a range is saved whole or not at all).
   */
  const propose = (cells: PastedCell[], periodKeys: readonly string[]): CellRefusal | null => {
    const checked: SpreadBatchRequest['cells'] = [];
    for (const cell of cells) {
      const parsed = parseEditValue(cell.field, cell.raw);
      if (!parsed.ok) return { cell, reason: parsed.reason };
      if (parsed.value === null) return { cell, reason: i18next.t('grid:spread.needsValue') };
      checked.push({
        group: cell.item,
        periodKey: periodKeys[cell.col]!,
        field: cell.field,
        value: parsed.value as number,
      });
    }
    const batch: SpreadBatchRequest = {
      viewLevel: request.viewLevel,
      drillDown: request.bucket,
      ...(request.bu ? { bu: request.bu } : {}),
      ...(request.pf ? { pf: request.pf } : {}),
      ...(request.region ? { region: request.region } : {}),
      ...(request.search ? { search: request.search } : {}),
      preview: true,
      cells: checked,
    };
    preview.mutate({ cells, batch });
    return null;
  };

  return {
    proposed,
    isBusy: preview.isPending || save.isPending,
    propose,
    confirm: (reasonCode: ReasonCode | undefined) =>
      proposed &&
      save.mutate(
        reasonCode
          ? { ...proposed.request, cells: proposed.request.cells.map((cell) => ({ ...cell, reasonCode })) }
          : proposed.request,
      ),
    cancel: () => setProposed(null),
  };
}
