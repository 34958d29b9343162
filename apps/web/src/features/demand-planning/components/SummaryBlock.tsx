import type { SummaryStats } from '@ps/domain';
import { ActivityIcon, BarChart3Icon, ScaleIcon, type LucideIcon } from 'lucide-react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';
import { useSummaryStats } from '../hooks/useDashboardData';
import { LoadErrorBanner } from './LoadErrorBanner';
import { useTranslation } from 'react-i18next';

function SummaryCard({
  title,
  icon: Icon,
  children,
}: {
  title: string;
  icon: LucideIcon;
  children: ReactNode;
}) {
  return (
    <Card className="flex flex-col gap-3 p-4">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <Icon className="size-4 text-muted-foreground" aria-hidden />
        {title}
      </h3>
      {children}
    </Card>
  );
}

function Stat({
  label,
  value,
  tone,
  isLoading,
  testId,
}: {
  label: string;
  value: string;
  tone?: 'positive' | 'negative';
  isLoading: boolean;
  /** Stays the same in every language, for tests. */
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center justify-between text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      {isLoading ? (
        <dd
          className="h-4 w-16 animate-pulse rounded bg-muted"
          aria-label={t('planning:loadingItem', { title: label })}
        />
      ) : (
        <dd
          className={cn(
            'font-semibold tabular-nums',
            tone === 'positive' && 'text-success',
            tone === 'negative' && 'text-destructive',
          )}
          data-testid={`stat-${testId}`}
        >
          {value}
        </dd>
      )}
    </div>
  );
}

function activityLines(stats: SummaryStats, number: (value: number) => string, t: TFunction): string[] {
  const active = stats.positiveOverrides + stats.negativeOverrides;
  return [
    t('planning:activity.changedToday', { count: stats.modifiedToday, number: number(stats.modifiedToday) }),
    t('planning:activity.pendingReview', { count: stats.pendingReview, number: number(stats.pendingReview) }),
    t('planning:activity.activeOverrides', {
      count: active,
      number: number(active),
      skus: number(stats.totalSkus),
    }),
  ];
}

/** Summary block (spec §2): Summary Statistics, Override Impact and Recent Activity, from GET /api/summary-stats. */
export function SummaryBlock() {
  const fmt = useFormatters();
  const { data, error, isPending, refetch, isFetching } = useSummaryStats();
  const number = (value: number | undefined) => (value === undefined ? '—' : fmt.number(value));
  const { t } = useTranslation();

  return (
    <section aria-label={t('planning:summary.label')} className="flex flex-col gap-3">
      {error && (
        <LoadErrorBanner
          subject="planning:loadError.summary"
          error={error}
          onRetry={() => void refetch()}
          isRetrying={isFetching}
        />
      )}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <SummaryCard title={t('planning:summary.statistics')} icon={BarChart3Icon}>
          <dl className="flex flex-col gap-2">
            <Stat
              label={t('planning:summary.totalSkus')}
              testId="Total SKUs"
              value={number(data?.totalSkus)}
              isLoading={isPending}
            />
            <Stat
              label={t('planning:summary.modifiedToday')}
              testId="Modified Today"
              value={number(data?.modifiedToday)}
              isLoading={isPending}
            />
            <Stat
              label={t('planning:summary.pendingReview')}
              testId="Pending Review"
              value={number(data?.pendingReview)}
              isLoading={isPending}
            />
          </dl>
        </SummaryCard>
        <SummaryCard title={t('planning:summary.overrideImpact')} icon={ScaleIcon}>
          <dl className="flex flex-col gap-2">
            <Stat
              label={t('planning:summary.netImpact')}
              testId="Net Impact"
              value={data ? fmt.signedThousands(data.netImpact) : '—'}
              tone={data ? (data.netImpact >= 0 ? 'positive' : 'negative') : undefined}
              isLoading={isPending}
            />
            <Stat
              label={t('planning:summary.positiveOverrides')}
              testId="Positive Overrides"
              value={number(data?.positiveOverrides)}
              tone="positive"
              isLoading={isPending}
            />
            <Stat
              label={t('planning:summary.negativeOverrides')}
              testId="Negative Overrides"
              value={number(data?.negativeOverrides)}
              tone="negative"
              isLoading={isPending}
            />
          </dl>
        </SummaryCard>
        <SummaryCard title={t('planning:summary.recentActivity')} icon={ActivityIcon}>
          {data ? (
            <ul className="flex list-disc flex-col gap-1 pl-4 text-sm text-muted-foreground">
              {activityLines(data, fmt.number, t).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">
              {isPending ? t('planning:summary.loadingActivity') : t('planning:summary.noActivity')}
            </p>
          )}
        </SummaryCard>
      </div>
    </section>
  );
}
