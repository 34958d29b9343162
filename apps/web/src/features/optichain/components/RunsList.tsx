import type { OptimisationRun } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';

/** Catalogue keys of a solve's outcome. */
export const STATUS_LABELS = {
  optimal: 'optichain:status.optimal',
  'time-limit': 'optichain:status.timeLimit',
  infeasible: 'optichain:status.infeasible',
  unbounded: 'optichain:status.unbounded',
  error: 'optichain:status.error',
} as const;

const RUN_LABELS = {
  running: 'optichain:status.running',
  succeeded: 'optichain:status.succeeded',
  failed: 'optichain:status.failed',
} as const;

/** Recent solves, newest first; a click shows one. */
export function RunsList({
  runs,
  selectedId,
  onSelect,
}: {
  runs: readonly OptimisationRun[];
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (runs.length === 0) {
    return <p className="text-sm text-muted-foreground">{t('optichain:runs.empty')}</p>;
  }
  return (
    <div className="max-h-72 overflow-auto">
      <table className="w-full text-sm" aria-label={t('optichain:runs.title')} data-testid="runs-table">
        <thead className="sticky top-0 bg-card">
          <tr className="border-b border-border text-left text-muted-foreground">
            <th className="px-2 py-1.5 font-medium">{t('optichain:runs.run')}</th>
            <th className="px-2 py-1.5 font-medium">{t('optichain:runs.scenario')}</th>
            <th className="px-2 py-1.5 font-medium">{t('optichain:runs.horizon')}</th>
            <th className="px-2 py-1.5 font-medium">{t('optichain:runs.status')}</th>
            <th className="px-2 py-1.5 text-right font-medium">{t('optichain:kpi.totalCost')}</th>
            <th className="px-2 py-1.5 text-right font-medium">{t('optichain:kpi.service')}</th>
            <th className="px-2 py-1.5 text-right font-medium">{t('optichain:kpi.openDcs')}</th>
            <th className="px-2 py-1.5 font-medium">{t('optichain:runs.started')}</th>
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {runs.map((run) => (
            <tr
              key={run.id}
              onClick={() => onSelect(run.id)}
              className={cn(
                'cursor-pointer border-b border-border last:border-0 hover:bg-accent',
                run.id === selectedId && 'bg-accent font-medium',
              )}
              data-testid={`run-row-${run.id}`}
            >
              <td className="px-2 py-1.5">
                <button
                  type="button"
                  className="underline-offset-2 hover:underline"
                  onClick={() => onSelect(run.id)}
                >
                  {`#${run.id}`}
                </button>
              </td>
              <td className="px-2 py-1.5">{run.scenarioName ?? t('optichain:solve.baseline')}</td>
              <td className="px-2 py-1.5">
                {t(
                  run.settings.horizon.granularity === 'month'
                    ? 'optichain:runs.months'
                    : 'optichain:runs.quarters',
                  {
                    start: run.settings.horizon.start,
                    periods: run.settings.horizon.periods,
                  },
                )}
              </td>
              <td className="px-2 py-1.5">
                <Badge
                  variant={
                    run.status === 'failed' || run.summary?.status === 'infeasible'
                      ? 'destructive'
                      : run.status === 'running'
                        ? 'secondary'
                        : 'outline'
                  }
                >
                  {run.summary ? t(STATUS_LABELS[run.summary.status]) : t(RUN_LABELS[run.status])}
                </Badge>
              </td>
              <td className="px-2 py-1.5 text-right">
                {run.summary?.totalCost == null ? '' : format.currency(run.summary.totalCost, 0)}
              </td>
              <td className="px-2 py-1.5 text-right">
                {run.summary ? format.percent(run.summary.servicePercent) : ''}
              </td>
              <td className="px-2 py-1.5 text-right">
                {run.summary ? format.number(run.summary.openDcs) : ''}
              </td>
              <td className="px-2 py-1.5">{format.dateTime(run.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
