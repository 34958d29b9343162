import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { PageHeading } from '@/components/PageHeading';
import { MODULES } from '@/features/shell';
import { errorText } from '@/i18n/error-text';
import { MetricCard } from './MetricCard';

export type MetricDefinition = { title: string; icon: LucideIcon; value: string | null; note?: string };

type MetricsScreenProps = {
  title: string;
  subtitle: string;
  metrics: readonly MetricDefinition[];
  error: unknown;
  isLoading: boolean;
  /** The charts and tables, or null while the data set has no weeks (then `emptyMessage` shows). */
  children: ReactNode;
  emptyMessage: string;
};

/**
 * Frame shared by the control tower's inventory metric screens (spec §2): heading with the module
 * badge, the query's error, four metric cards, then the screen's own panels.
 */
export function MetricsScreen({
  title,
  subtitle,
  metrics,
  error,
  isLoading,
  children,
  emptyMessage,
}: MetricsScreenProps) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={title}
        subtitle={subtitle}
        badges={
          <Badge variant="outline">{`${t(MODULES.controlTower.nameKey)} ${MODULES.controlTower.version}`}</Badge>
        }
      />
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {errorText(error)}
        </p>
      ) : null}
      <section
        aria-label={t('controlTower:summaryLabel', { title })}
        className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      >
        {metrics.map((metric) => (
          <MetricCard key={metric.title} {...metric} />
        ))}
      </section>
      {children ?? (!isLoading && <p className="text-sm text-muted-foreground">{emptyMessage}</p>)}
    </div>
  );
}
