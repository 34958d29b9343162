import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** Shown in place of a figure until the control tower's data service supplies it. */
export const NO_VALUE = '—';

type MetricCardProps = {
  title: string;
  icon: LucideIcon;
  /** The figure, or null while no source exists (renders '—' and the no-data note). */
  value: string | null;
  /** A fixed fact that stands without data, e.g. 'Target 95%'. */
  note?: string;
};

export function MetricCard({ title, icon: Icon, value, note }: MetricCardProps) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2 pb-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <Icon className="size-5 text-muted-foreground" aria-hidden />
      </CardHeader>
      <CardContent className="@container min-w-0">
        <p
          // Shrinks with the card instead of overflowing it.
          className="text-[length:clamp(0.875rem,10cqi,1.875rem)] font-bold whitespace-nowrap"
          aria-label={value === null ? t('controlTower:noDataFor', { title }) : undefined}
        >
          {value ?? NO_VALUE}
        </p>
        {value === null && <p className="mt-1 text-xs text-muted-foreground">{t('common:noData')}</p>}
        {note && <p className="mt-1 text-xs text-muted-foreground">{note}</p>}
      </CardContent>
    </Card>
  );
}
