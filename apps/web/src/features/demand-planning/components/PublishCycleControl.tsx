import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, SendIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanCyclePreview, QuarterTotals } from '@ps/domain';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { hasGroup, useAuth } from '@/features/auth';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import { fetchPublishPreview, publishPlanCycle } from '../api/demand-planning.api';

const PREVIEW_KEY = ['plan-cycles', 'preview'] as const;

/** The clients' totals added up per quarter, in quarter order, and their grand total. */
function combineQuarters(previews: PlanCyclePreview[]): { quarters: QuarterTotals[]; total: QuarterTotals } {
  const byQuarter = new Map<string, QuarterTotals>();
  const total = { quarter: '', units: 0, cost: 0, revenue: 0 };
  for (const q of previews.flatMap((p) => p.quarters)) {
    const sum = byQuarter.get(q.quarter) ?? { quarter: q.quarter, units: 0, cost: 0, revenue: 0 };
    for (const target of [sum, total]) {
      target.units += q.units;
      target.cost += q.cost;
      target.revenue += q.revenue;
    }
    byQuarter.set(q.quarter, sum);
  }
  return { quarters: [...byQuarter.values()].sort((a, b) => a.quarter.localeCompare(b.quarter)), total };
}

/**
 * The admin's "Publish Cycle" button: a confirmation with the Final plan totals by quarter that
 * are about to become P1, then the publish; afterwards every query (grid, dashboard, summary) is
 * refreshed so the new P1/P2 and publish values show.
 */
export function PublishCycleControl() {
  const { user } = useAuth();
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const [isOpen, setIsOpen] = useState(false);
  const isAdmin = hasGroup(user, 'admin');
  const preview = useQuery({
    queryKey: PREVIEW_KEY,
    queryFn: ({ signal }) => fetchPublishPreview(signal),
    enabled: isAdmin && isOpen,
    staleTime: 0,
  });
  const publish = useMutation({
    mutationFn: publishPlanCycle,
    onSuccess: (versions) => {
      setIsOpen(false);
      toast({
        title: i18next.t('planning:publish.success.title'),
        description: i18next.t('planning:publish.success.description', {
          label: versions[0]?.label ?? '',
          count: versions.reduce((sum, v) => sum + v.recordCount, 0),
        }),
      });
      void queryClient.invalidateQueries();
    },
    onError: (error) =>
      toast({
        title: i18next.t('planning:publish.failure'),
        description: errorText(error),
        variant: 'destructive',
      }),
  });

  if (!isAdmin) return null;
  const combined = preview.data ? combineQuarters(preview.data) : null;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setIsOpen(true)}>
        <SendIcon aria-hidden />
        {t('planning:publish.button')}
      </Button>
      <Dialog open={isOpen} onOpenChange={(open) => !publish.isPending && setIsOpen(open)}>
        <DialogContent className="sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{t('planning:publish.title')}</DialogTitle>
            <DialogDescription>{t('planning:publish.description')}</DialogDescription>
          </DialogHeader>
          {preview.isPending && (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="animate-spin" aria-hidden />
              {t('planning:publish.loading')}
            </p>
          )}
          {preview.isError && (
            <p role="alert" className="text-sm text-destructive">
              {t('planning:publish.previewError', { detail: errorText(preview.error) })}
            </p>
          )}
          {combined && (
            <table className="w-full text-sm" aria-label={t('planning:publish.tableLabel')}>
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th className="py-1.5 font-medium">{t('planning:publish.quarter')}</th>
                  <th className="py-1.5 text-right font-medium">{t('planning:publish.units')}</th>
                  <th className="py-1.5 text-right font-medium">{t('planning:publish.cost')}</th>
                  <th className="py-1.5 text-right font-medium">{t('planning:publish.revenue')}</th>
                </tr>
              </thead>
              <tbody className="tabular-nums">
                {[...combined.quarters, { ...combined.total, quarter: t('planning:publish.total') }].map(
                  (q) => (
                    <tr key={q.quarter} className="border-b border-border last:border-0 last:font-semibold">
                      <td className="py-1.5">{q.quarter}</td>
                      <td className="py-1.5 text-right">{format.number(q.units)}</td>
                      <td className="py-1.5 text-right">{format.currency(q.cost, 0)}</td>
                      <td className="py-1.5 text-right">{format.currency(q.revenue, 0)}</td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setIsOpen(false)} disabled={publish.isPending}>
              {t('common:cancel')}
            </Button>
            <Button onClick={() => publish.mutate()} disabled={!combined || publish.isPending}>
              {publish.isPending && <Loader2 className="animate-spin" aria-hidden />}
              {t('planning:publish.confirm')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
