import type { DemandRecord } from '@ps/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import { setRecordLocks } from '../api/grid-edits.api';
import { GRID_QUERY_PREFIX } from './useGridPage';

/** The per-record lock toggle: a locked record is left alone by aggregate edits. */
export function useRecordLocks(): (record: DemandRecord, locked: boolean) => void {
  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: ({ record, locked }: { record: DemandRecord; locked: boolean }) =>
      setRecordLocks({ records: [{ PID: record.PID, Time_Series_sk: record.Time_Series_sk }], locked }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GRID_QUERY_PREFIX }),
    onError: (error) =>
      toast({
        title: i18next.t('planning:toast.saveFailed.title'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });
  return useCallback((record, locked) => mutate({ record, locked }), [mutate]);
}
