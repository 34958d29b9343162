import { useCallback, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import type { ClientContext } from '@/features/auth';
import { downloadGridCsv } from '../api/demand-planning.api';
import type { GridRequest } from '../utils/grid-query';

/** Export CSV (spec §9): the server streams every row matching the grid's filters and view level. */
export function useCsvExport(request: Omit<GridRequest, 'offset' | 'limit'>, clientContext: ClientContext) {
  const [isExporting, setExporting] = useState(false);
  const exportCsv = useCallback(async () => {
    setExporting(true);
    try {
      await downloadGridCsv(request, clientContext);
      toast({
        title: i18next.t('planning:toast.exported.title'),
        description: i18next.t('planning:toast.exported.description'),
      });
    } catch (error) {
      toast({
        title: i18next.t('planning:toast.exportFailed.title'),
        description: errorText(error),
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  }, [request, clientContext]);
  return { isExporting, exportCsv };
}
