import { CalendarRangeIcon, CircleHelpIcon, DollarSignIcon, HistoryIcon, TrendingUpIcon } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { AiHelpBubble } from '@/features/ai-assistant';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useFormatters } from '@/lib/settings/useFormatters';
import { useDashboardMetrics } from '../hooks/useDashboardData';
import { LoadErrorBanner } from './LoadErrorBanner';
import { MetricCard } from './MetricCard';
import { CurrencyNote } from '@/components/CurrencyNote';

const toneOf = (value: number | undefined) =>
  value === undefined ? 'neutral' : value >= 0 ? 'positive' : 'negative';

const strong = { strong: <strong className="text-foreground" /> };

/** Financial Dashboard (spec §2): four cards computed on the server, and a help button. */
export function FinancialDashboard() {
  const fmt = useFormatters();
  const { t } = useTranslation();
  const { data, error, isPending, refetch, isFetching } = useDashboardMetrics();
  const isLoading = isPending;

  return (
    <section aria-labelledby="financial-dashboard-title" className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <h2 id="financial-dashboard-title" className="text-lg font-semibold">
          {t('planning:dashboard.title')}
        </h2>
        <Popover>
          <PopoverTrigger asChild>
            <Button variant="ghost" size="icon" className="size-7" aria-label={t('planning:dashboard.about')}>
              <CircleHelpIcon />
            </Button>
          </PopoverTrigger>
          <PopoverContent className="w-96 text-sm" align="start">
            <h3 className="mb-2 font-semibold">{t('planning:dashboard.title')}</h3>
            <p className="mb-2 text-muted-foreground">
              {data
                ? t('planning:dashboard.scopeAsOf', { quarter: data.quarter, date: fmt.date(data.asOf) })
                : t('planning:dashboard.scope')}
            </p>
            <ul className="list-disc space-y-1 pl-4 text-muted-foreground">
              <li>
                <Trans i18nKey="planning:dashboard.helpCurrent" components={strong} />
              </li>
              <li>
                <Trans i18nKey="planning:dashboard.helpLast" components={strong} />
              </li>
              <li>
                <Trans i18nKey="planning:dashboard.helpQuarter" components={strong} />
              </li>
              <li>
                <Trans i18nKey="planning:dashboard.helpYear" components={strong} />
              </li>
            </ul>
            <p className="mt-2 text-xs text-muted-foreground">{t('planning:dashboard.helpValues')}</p>
          </PopoverContent>
        </Popover>
        <AiHelpBubble context="performance-metrics" />
      </div>
      {error && (
        <LoadErrorBanner
          subject="planning:loadError.dashboard"
          error={error}
          onRetry={() => void refetch()}
          isRetrying={isFetching}
        />
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard
          title={t('planning:dashboard.lastPublish')}
          testId="Last Publish Value"
          icon={HistoryIcon}
          isLoading={isLoading}
          value={data ? fmt.dashboardCurrency(data.lastPublishValue) : '—'}
          caption={
            data
              ? t('planning:dashboard.p2For', { quarter: data.quarter })
              : t('planning:dashboard.previousPublished')
          }
        />
        <MetricCard
          title={t('planning:dashboard.currentPublish')}
          testId="Current Publish Value"
          icon={DollarSignIcon}
          isLoading={isLoading}
          value={data ? fmt.dashboardCurrency(data.currentPublishValue) : '—'}
          caption={
            data
              ? t('planning:dashboard.p1For', { quarter: data.quarter })
              : t('planning:dashboard.latestPublished')
          }
        />
        <MetricCard
          title={t('planning:dashboard.quarterChange')}
          testId="Quarter Change"
          icon={CalendarRangeIcon}
          isLoading={isLoading}
          tone={toneOf(data?.quarterChange)}
          value={data ? fmt.signedPercent(data.quarterChange) : '—'}
          caption={t('planning:dashboard.vsPreviousQuarter')}
        />
        <MetricCard
          title={t('planning:dashboard.yearOverYear')}
          testId="Year over Year"
          icon={TrendingUpIcon}
          isLoading={isLoading}
          tone={toneOf(data?.yearOverYearChange)}
          value={data ? fmt.signedPercent(data.yearOverYearChange) : '—'}
          caption={t('planning:dashboard.vsPreviousYear')}
        />
      </div>
      <CurrencyNote />
    </section>
  );
}
