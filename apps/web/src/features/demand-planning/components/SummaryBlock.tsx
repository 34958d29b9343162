import type { SummaryStats } from '@ps/domain';
import { ActivityIcon, BarChart3Icon, ScaleIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { useFormatters } from '@/features/settings/useFormatters';
import { cn } from '@/lib/cn';
import { useSummaryStats } from '../hooks/useDashboardData';
import { LoadErrorBanner } from './LoadErrorBanner';

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
}: {
  label: string;
  value: string;
  tone?: 'positive' | 'negative';
  isLoading: boolean;
}) {
  return (
    <div className="flex items-center justify-between text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      {isLoading ? (
        <dd className="h-4 w-16 animate-pulse rounded bg-muted" aria-label={`Loading ${label}`} />
      ) : (
        <dd
          className={cn(
            'font-semibold tabular-nums',
            tone === 'positive' && 'text-success',
            tone === 'negative' && 'text-destructive',
          )}
          data-testid={`stat-${label}`}
        >
          {value}
        </dd>
      )}
    </div>
  );
}

function activityLines(stats: SummaryStats, number: (value: number) => string): string[] {
  return [
    `${number(stats.modifiedToday)} record${stats.modifiedToday === 1 ? '' : 's'} changed today.`,
    `${number(stats.pendingReview)} override${stats.pendingReview === 1 ? '' : 's'} waiting for review.`,
    `${number(stats.positiveOverrides + stats.negativeOverrides)} overrides active across ${number(stats.totalSkus)} SKUs.`,
  ];
}

/** Summary block (spec §2): Summary Statistics, Override Impact and Recent Activity, from GET /api/summary-stats. */
export function SummaryBlock() {
  const fmt = useFormatters();
  const { data, error, isPending, refetch, isFetching } = useSummaryStats();
  const number = (value: number | undefined) => (value === undefined ? '—' : fmt.number(value));

  return (
    <section aria-label="Summary" className="flex flex-col gap-3">
      {error && (
        <LoadErrorBanner
          subject="the summary"
          error={error}
          onRetry={() => void refetch()}
          isRetrying={isFetching}
        />
      )}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <SummaryCard title="Summary Statistics" icon={BarChart3Icon}>
          <dl className="flex flex-col gap-2">
            <Stat label="Total SKUs" value={number(data?.totalSkus)} isLoading={isPending} />
            <Stat label="Modified Today" value={number(data?.modifiedToday)} isLoading={isPending} />
            <Stat label="Pending Review" value={number(data?.pendingReview)} isLoading={isPending} />
          </dl>
        </SummaryCard>
        <SummaryCard title="Override Impact" icon={ScaleIcon}>
          <dl className="flex flex-col gap-2">
            <Stat
              label="Net Impact"
              value={data ? fmt.signedThousands(data.netImpact) : '—'}
              tone={data ? (data.netImpact >= 0 ? 'positive' : 'negative') : undefined}
              isLoading={isPending}
            />
            <Stat
              label="Positive Overrides"
              value={number(data?.positiveOverrides)}
              tone="positive"
              isLoading={isPending}
            />
            <Stat
              label="Negative Overrides"
              value={number(data?.negativeOverrides)}
              tone="negative"
              isLoading={isPending}
            />
          </dl>
        </SummaryCard>
        <SummaryCard title="Recent Activity" icon={ActivityIcon}>
          {data ? (
            <ul className="flex list-disc flex-col gap-1 pl-4 text-sm text-muted-foreground">
              {activityLines(data, fmt.number).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">
              {isPending ? 'Loading recent activity...' : 'No recent activity.'}
            </p>
          )}
        </SummaryCard>
      </div>
    </section>
  );
}
