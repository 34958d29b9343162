import { useCallback, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
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
      toast({ title: 'Export Complete', description: 'Real data exported to CSV successfully.' });
    } catch (error) {
      toast({
        title: 'Export Failed',
        description: error instanceof Error && error.message ? error.message : 'Unknown error occurred',
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  }, [request, clientContext]);
  return { isExporting, exportCsv };
}
