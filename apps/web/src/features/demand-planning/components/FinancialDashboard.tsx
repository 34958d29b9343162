import { CalendarRangeIcon, CircleHelpIcon, DollarSignIcon, HistoryIcon, TrendingUpIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useFormatters } from '@/features/settings/useFormatters';
import { useDashboardMetrics } from '../hooks/useDashboardData';
import { LoadErrorBanner } from './LoadErrorBanner';
import { MetricCard } from './MetricCard';

const toneOf = (value: number | undefined) =>
  value === undefined ? 'neutral' : value >= 0 ? 'positive' : 'negative';

/** Financial Dashboard (spec §2): four cards computed on the server, and a help button. */
export function FinancialDashboard() {
  const fmt = useFormatters();
  const { data, error, isPending, refetch, isFetching } = useDashboardMetrics();
  const isLoading = isPending;

  return (
    <section aria-labelledby="financial-dashboard-title" className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <h2 id="financial-dashboard-title" className="text-lg font-semibold">
          Financial Dashboard
        </h2>
        <Popover>
          <PopoverTrigger asChild>
            <Button variant="ghost" size="icon" className="size-7" aria-label="About the Financial Dashboard">
              <CircleHelpIcon />
            </Button>
          </PopoverTrigger>
          <PopoverContent className="w-96 text-sm" align="start">
            <h3 className="mb-2 font-semibold">Financial Dashboard</h3>
            <p className="mb-2 text-muted-foreground">
              Figures for the current quarter{data ? ` (${data.quarter}, as of ${fmt.date(data.asOf)})` : ''},
              over the data you may see.
            </p>
            <ul className="list-disc space-y-1 pl-4 text-muted-foreground">
              <li>
                <strong className="text-foreground">Current Publish Value</strong>: revenue of the plan as
                last published (P1) for the quarter.
              </li>
              <li>
                <strong className="text-foreground">Last Publish Value</strong>: the same quarter as published
                one cycle earlier (P2).
              </li>
              <li>
                <strong className="text-foreground">Quarter Change</strong>: quarter revenue against the
                previous quarter. Past weeks count their actual revenue, the current and later weeks their
                final plan.
              </li>
              <li>
                <strong className="text-foreground">Year over Year</strong>: the same against the quarter a
                year earlier. With nothing to compare against it reads 0.0%.
              </li>
            </ul>
            <p className="mt-2 text-xs text-muted-foreground">
              Values are shown ×10 in whole currency units; changes in percent with one decimal, green when
              not falling, red when falling.
            </p>
          </PopoverContent>
        </Popover>
      </div>
      {error && (
        <LoadErrorBanner
          subject="the dashboard"
          error={error}
          onRetry={() => void refetch()}
          isRetrying={isFetching}
        />
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard
          title="Last Publish Value"
          icon={HistoryIcon}
          isLoading={isLoading}
          value={data ? fmt.dashboardCurrency(data.lastPublishValue) : '—'}
          caption={data ? `P2 plan for ${data.quarter}` : 'Previous published plan'}
        />
        <MetricCard
          title="Current Publish Value"
          icon={DollarSignIcon}
          isLoading={isLoading}
          value={data ? fmt.dashboardCurrency(data.currentPublishValue) : '—'}
          caption={data ? `P1 plan for ${data.quarter}` : 'Latest published plan'}
        />
        <MetricCard
          title="Quarter Change"
          icon={CalendarRangeIcon}
          isLoading={isLoading}
          tone={toneOf(data?.quarterChange)}
          value={data ? fmt.signedPercent(data.quarterChange) : '—'}
          caption="vs Previous Quarter"
        />
        <MetricCard
          title="Year over Year"
          icon={TrendingUpIcon}
          isLoading={isLoading}
          tone={toneOf(data?.yearOverYearChange)}
          value={data ? fmt.signedPercent(data.yearOverYearChange) : '—'}
          caption="vs Previous Year"
        />
      </div>
    </section>
  );
}
