import {
  isOverrideField,
  periodParamsOf,
  type AggregatedRow,
  type OverrideField,
  type ReasonCode,
  type RollupViewLevel,
  type SpreadRequest,
  type SpreadResult,
} from '@ps/domain';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import { spreadAggregateEdit } from '../api/grid-edits.api';
import { parseEditValue } from '../utils/edit-values';
import type { GridRequest } from '../utils/grid-query';
import { DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY } from './useDashboardData';
import { GRID_QUERY_PREFIX } from './useGridPage';

/** An aggregate edit waiting for the planner's yes: what was typed and what it would move. */
export type ProposedSpread = { request: SpreadRequest; preview: SpreadResult; row: AggregatedRow };

/**
 * Edits at an aggregated level: the typed figure is checked by the cell's
 * rules, the server previews what it would move, and only the planner's confirmation saves it.
 */
export function useAggregateEdit(view: Omit<GridRequest, 'offset' | 'limit'>) {
  const queryClient = useQueryClient();
  const [proposed, setProposed] = useState<ProposedSpread | null>(null);

  const preview = useMutation({
    mutationFn: async ({ request, row }: { request: SpreadRequest; row: AggregatedRow }) => ({
      request,
      row,
      preview: await spreadAggregateEdit({ ...request, preview: true }),
    }),
    onSuccess: (result) => setProposed(result),
    onError: announceSpreadRefused,
  });

  const save = useMutation({
    mutationFn: (request: SpreadRequest) => spreadAggregateEdit({ ...request, preview: false }),
    onSuccess: async (result) => {
      setProposed(null);
      await announceSpreadSaved(queryClient, result);
    },
    onError: announceSpreadSaveFailed,
  });

  /** Checks a value typed into an aggregated cell; answers the refusal's reason, or null when it goes to preview. */
  const edit = useCallback(
    (row: AggregatedRow, field: string, raw: unknown): string | null => {
      if (!isOverrideField(field) || view.viewLevel === 'none') return null;
      const parsed = parseEditValue(field, raw);
      if (!parsed.ok) return parsed.reason;
      if (parsed.value === null) return i18next.t('grid:spread.needsValue');
      const request: SpreadRequest = {
        viewLevel: view.viewLevel,
        drillDown: view.drillDown,
        group: groupOf(row, view.viewLevel),
        ...(row.periodKey ? { periodKey: row.periodKey } : {}),
        field: field satisfies OverrideField,
        value: parsed.value as number,
        ...(view.bu ? { bu: view.bu } : {}),
        ...(view.pf ? { pf: view.pf } : {}),
        ...(view.region ? { region: view.region } : {}),
        ...(view.search ? { search: view.search } : {}),
        ...periodParamsOf(view.period),
        preview: true,
      };
      preview.mutate({ request, row });
      return null;
    },
    [view, preview],
  );

  return {
    proposed,
    isBusy: preview.isPending || save.isPending,
    edit,
    confirm: (reasonCode: ReasonCode | undefined) =>
      proposed && save.mutate(reasonCode ? { ...proposed.request, reasonCode } : proposed.request),
    cancel: () => setProposed(null),
  };
}

function groupOf(row: AggregatedRow, viewLevel: RollupViewLevel): string {
  if (viewLevel === 'sku') return row.PID ?? '';
  if (viewLevel === 'category') return row.PF ?? '';
  return row.BU ?? '';
}

/** After a spread is saved (one cell or a pasted range): the toast, and every view of the plan reloads. */
export async function announceSpreadSaved(queryClient: QueryClient, result: SpreadResult): Promise<void> {
  toast({
    title: i18next.t('planning:toast.saved.title'),
    description: i18next.t('grid:spread.saved', { count: result.changedRecords }),
  });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: GRID_QUERY_PREFIX }),
    queryClient.invalidateQueries({ queryKey: DASHBOARD_METRICS_KEY }),
    queryClient.invalidateQueries({ queryKey: SUMMARY_STATS_KEY }),
  ]);
}

/** The server refused to preview a spread (a value below the locked units, every record locked…). */
export function announceSpreadRefused(error: unknown): void {
  toast({ title: i18next.t('grid:spread.refused'), description: errorText(error), variant: 'destructive' });
}

export function announceSpreadSaveFailed(error: unknown): void {
  toast({
    title: i18next.t('planning:toast.saveFailed.title'),
    description: errorText(error),
    variant: 'destructive',
  });
}
