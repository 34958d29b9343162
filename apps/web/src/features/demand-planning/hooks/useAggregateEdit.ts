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
import { gridQueryParams, type GridRequest } from '../utils/grid-query';
import { reloadDashboard } from './useDashboardData';
import { applySavedRows, reloadAfterWrite } from './useGridPage';

/**
 * An aggregate edit waiting for the planner's yes: what was typed, what it would move, and the
 * view it was typed in (the grid's query parameters, whose cached pages the saved row goes into).
 */
export type ProposedSpread = {
  request: SpreadRequest;
  preview: SpreadResult;
  row: AggregatedRow;
  viewParams: string;
};

/**
 * Edits at an aggregated level: the typed figure is checked by the cell's
 * rules, the server previews what it would move, and only the planner's confirmation saves it.
 */
export function useAggregateEdit(view: Omit<GridRequest, 'offset' | 'limit'>) {
  const queryClient = useQueryClient();
  const [proposed, setProposed] = useState<ProposedSpread | null>(null);

  const preview = useMutation({
    mutationFn: async (proposal: Omit<ProposedSpread, 'preview'>) => ({
      ...proposal,
      preview: await spreadAggregateEdit({ ...proposal.request, preview: true }),
    }),
    onSuccess: (result) => setProposed(result),
    onError: announceSpreadRefused,
  });

  const save = useMutation({
    mutationFn: ({ request }: { request: SpreadRequest; viewParams: string }) =>
      spreadAggregateEdit({ ...request, preview: false }),
    onSuccess: (result, { viewParams }) => {
      setProposed(null);
      announceSaved(result);
      if (result.row) {
        // The answer holds the cell's row as its view now sums it: the grid shows it at once.
        applySavedRows(queryClient, { kind: 'rollup', viewParams, rows: [result.row] });
        void reloadDashboard(queryClient);
      } else void reloadAfterWrite(queryClient);
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
      preview.mutate({ request, row, viewParams: gridQueryParams(view).toString() });
      return null;
    },
    [view, preview],
  );

  return {
    proposed,
    isBusy: preview.isPending || save.isPending,
    edit,
    confirm: (reasonCode: ReasonCode | undefined) =>
      proposed &&
      save.mutate({
        request: reasonCode ? { ...proposed.request, reasonCode } : proposed.request,
        viewParams: proposed.viewParams,
      }),
    cancel: () => setProposed(null),
  };
}

function groupOf(row: AggregatedRow, viewLevel: RollupViewLevel): string {
  if (viewLevel === 'sku') return row.PID ?? '';
  if (viewLevel === 'category') return row.PF ?? '';
  return row.BU ?? '';
}

function announceSaved(result: SpreadResult): void {
  toast({
    title: i18next.t('planning:toast.saved.title'),
    description: i18next.t('grid:spread.saved', { count: result.changedRecords }),
  });
}

/** After a spread is saved (one cell or a pasted range): the toast, and every view of the plan reloads. */
export async function announceSpreadSaved(queryClient: QueryClient, result: SpreadResult): Promise<void> {
  announceSaved(result);
  await reloadAfterWrite(queryClient);
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
