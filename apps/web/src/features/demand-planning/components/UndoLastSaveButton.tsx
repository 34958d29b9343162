import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Undo2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { undoLastSave } from '../api/grid-edits.api';
import { DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY } from '../hooks/useDashboardData';
import { GRID_QUERY_PREFIX } from '../hooks/useGridPage';

/**
 * Undo of the planner's last save (issue 15, Must 7): the server reverts it as a new audited
 * change, and refuses when someone changed those fields since.
 */
export function UndoLastSaveButton({ isDisabled }: { isDisabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const undo = useMutation({
    mutationFn: undoLastSave,
    onSuccess: async (result) => {
      toast({
        title: t('grid:undo.title'),
        description: t('grid:undo.done', { count: result.updatedRecords }),
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: GRID_QUERY_PREFIX }),
        queryClient.invalidateQueries({ queryKey: DASHBOARD_METRICS_KEY }),
        queryClient.invalidateQueries({ queryKey: SUMMARY_STATS_KEY }),
      ]);
    },
    onError: (error) =>
      toast({ title: t('grid:undo.failed'), description: errorText(error), variant: 'destructive' }),
  });
  return (
    <Button variant="outline" size="sm" onClick={() => undo.mutate()} disabled={isDisabled || undo.isPending}>
      <Undo2Icon />
      {t('grid:undo.button')}
    </Button>
  );
}
