import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Undo2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { ConfirmCountDialog } from '@/components/ConfirmCountDialog';
import { fetchLastSaveSize, undoLastSave } from '../api/grid-edits.api';
import { DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY } from '../hooks/useDashboardData';
import { GRID_QUERY_PREFIX } from '../hooks/useGridPage';

/**
 * Undo of the planner's last save: the server reverts it as a new audited
 * change, and refuses when someone changed those fields since.
 */
export function UndoLastSaveButton({ isDisabled }: { isDisabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [isConfirming, setConfirming] = useState(false);
  // Asked afresh each time the confirmation opens: the last save changes with every save.
  const lastSave = useQuery({
    queryKey: ['last-save-size'],
    queryFn: fetchLastSaveSize,
    enabled: isConfirming,
    staleTime: 0,
    gcTime: 0,
  });
  const records = lastSave.data?.records ?? 0;
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
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setConfirming(true)}
        disabled={isDisabled || undo.isPending}
      >
        <Undo2Icon />
        {t('grid:undo.button')}
      </Button>
      <ConfirmCountDialog
        isOpen={isConfirming}
        onOpenChange={setConfirming}
        title={t('grid:undo.confirmTitle')}
        description={
          lastSave.data && !lastSave.isFetching
            ? records > 0
              ? t('grid:undo.confirm', { count: records })
              : t('grid:undo.nothing')
            : null
        }
        confirmLabel={t('grid:undo.action')}
        canConfirm={records > 0}
        onConfirm={() => undo.mutate()}
        testId="undo-confirm"
      />
    </>
  );
}
