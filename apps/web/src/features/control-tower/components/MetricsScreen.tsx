import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { PageHeading } from '@/features/shell/components/PageHeading';
import { MODULES } from '@/features/shell/modules';
import { MetricCard } from './MetricCard';
import { PlaceholderPanel } from './PlaceholderPanel';

export type MetricDefinition = { title: string; icon: LucideIcon; note?: string };

type MetricsScreenProps = {
  title: string;
  subtitle: string;
  metrics: readonly MetricDefinition[];
  panel: { title: string; description: string; icon: LucideIcon; message: string };
};

/**
 * Frame shared by the control tower's metric screens (spec §2): four metric cards and a panel.
 * No figures are shown until a data service computes them from the plan tables.
 */
export function MetricsScreen({ title, subtitle, metrics, panel }: MetricsScreenProps) {
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
      <section
        aria-label={t('controlTower:summaryLabel', { title })}
        className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      >
        {metrics.map((metric) => (
          <MetricCard
            key={metric.title}
            title={metric.title}
            icon={metric.icon}
            note={metric.note}
            value={null}
          />
        ))}
      </section>
      <PlaceholderPanel {...panel} />
    </div>
  );
}
