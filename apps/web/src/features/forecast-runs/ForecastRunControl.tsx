import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LineChart, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { hasGroup, useAuth } from '@/features/auth';
import { errorText } from '@/i18n/error-text';
import { useFirstScreenShown } from '@/lib/first-screen';
import { i18next } from '@/i18n/i18n';
import type { ForecastRun } from '@ps/domain';
import { ConfirmCountDialog } from '@/components/ConfirmCountDialog';
import {
  fetchLatestRun,
  fetchRunPreview,
  latestRunQueryKey,
  runPreviewQueryKey,
  startForecastRun,
} from './forecast-runs-api';
import { useTranslation } from 'react-i18next';

/** While a run is going its progress is polled this often. */
const POLL_MS = 1000;

/**
 * The admin's "Run Forecast" button with the progress of the run in progress. The run is a
 * background job on the server; this polls it and, when it ends, refreshes every query so the
 * grid and the dashboard show the new forecasts.
 */
export function ForecastRunControl() {
  const { user } = useAuth();
  const { t } = useTranslation();
  const isAdmin = hasGroup(user, 'admin');
  const queryClient = useQueryClient();
  // The last run's state is asked for once the screen has shown its content (lib/first-screen.ts).
  const isScreenShown = useFirstScreenShown();
  const latest = useQuery({
    queryKey: latestRunQueryKey,
    queryFn: fetchLatestRun,
    enabled: isAdmin && isScreenShown,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
  const [isConfirming, setConfirming] = useState(false);
  // Asked afresh each time the confirmation opens: products and records change between runs.
  const preview = useQuery({
    queryKey: runPreviewQueryKey,
    queryFn: fetchRunPreview,
    enabled: isAdmin && isConfirming,
    staleTime: 0,
    gcTime: 0,
  });
  const start = useMutation({
    mutationFn: startForecastRun,
    onSuccess: (run) => queryClient.setQueryData(latestRunQueryKey, run),
    onError: (error) =>
      toast({
        title: i18next.t('forecast:notStarted'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });

  const run = latest.data ?? null;
  useRunCompletion(
    run,
    () => void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== latestRunQueryKey[0] }),
  );

  if (!isAdmin) return null;
  const isRunning = run?.status === 'running' || start.isPending;
  return (
    <div className="flex items-center gap-3" aria-live="polite">
      {run?.status === 'running' && (
        <div
          className="flex w-48 flex-col gap-1 text-xs text-muted-foreground"
          data-testid="forecast-progress"
        >
          <span>
            {run.totalProducts > 0
              ? t('forecast:progress', {
                  percent: run.progressPercent,
                  done: run.processedProducts,
                  total: run.totalProducts,
                })
              : t('forecast:preparing')}
          </span>
          <div
            className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-label={t('forecast:progressLabel')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={run.progressPercent}
          >
            <div
              className="h-full bg-primary transition-[width]"
              style={{ width: `${run.progressPercent}%` }}
            />
          </div>
        </div>
      )}
      <Button variant="outline" size="sm" disabled={isRunning} onClick={() => setConfirming(true)}>
        {isRunning ? <Loader2 className="animate-spin" aria-hidden /> : <LineChart aria-hidden />}
        {isRunning ? t('forecast:running') : t('forecast:run')}
      </Button>
      <ConfirmCountDialog
        isOpen={isConfirming}
        onOpenChange={setConfirming}
        title={t('forecast:confirm.title')}
        description={
          preview.data && !preview.isFetching
            ? t('forecast:confirm.description', {
                count: preview.data.records,
                products: preview.data.products,
              })
            : null
        }
        confirmLabel={t('forecast:run')}
        canConfirm={(preview.data?.records ?? 0) > 0}
        onConfirm={() => start.mutate()}
        testId="forecast-confirm"
      />
    </div>
  );
}

/** Toasts once when a run this page watched goes from running to finished, and calls onDone. */
function useRunCompletion(run: ForecastRun | null, onDone: () => void): void {
  const watched = useRef<number | null>(null);
  useEffect(() => {
    if (!run) return;
    if (run.status === 'running') {
      watched.current = run.id;
      return;
    }
    if (watched.current !== run.id) return;
    watched.current = null;
    if (run.status === 'succeeded') {
      toast({
        title: i18next.t('forecast:complete.title'),
        description: i18next.t('forecast:complete.description', {
          count: run.totalProducts,
          records: run.updatedRecords,
        }),
      });
      onDone();
    } else {
      toast({
        title: i18next.t('forecast:failed.title'),
        description: run.error ?? i18next.t('forecast:failed.description'),
        variant: 'destructive',
      });
    }
  }, [run, onDone]);
}
