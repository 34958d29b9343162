import type { InventoryPage } from '@ps/domain';
import { BoxesIcon, PencilLineIcon, PercentIcon, SlidersHorizontalIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useFormatters } from '@/features/settings/useFormatters';

/** Total Items, Modified Items, Overrides Active, Avg Override % (spec §2), for the current filter. */
export function SummaryCards({ summary }: { summary: InventoryPage['summary'] }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const cards = [
    { title: t('inventory:summary.totalItems'), value: fmt.number(summary.totalItems), icon: BoxesIcon },
    {
      title: t('inventory:summary.modifiedItems'),
      value: fmt.number(summary.modifiedItems),
      icon: PencilLineIcon,
    },
    {
      title: t('inventory:summary.overridesActive'),
      value: fmt.number(summary.overridesActive),
      icon: SlidersHorizontalIcon,
    },
    {
      title: t('inventory:summary.avgOverride'),
      value: fmt.signedPercent(summary.avgOverridePercent),
      icon: PercentIcon,
    },
  ];
  return (
    <section aria-label={t('inventory:summary.label')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {cards.map(({ title, value, icon: Icon }) => (
        <Card key={title}>
          <CardHeader className="flex flex-row items-center justify-between gap-2 pb-2">
            <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
            <Icon className="size-5 text-muted-foreground" aria-hidden />
          </CardHeader>
          <CardContent>
            <p className="text-3xl font-bold">{value}</p>
          </CardContent>
        </Card>
      ))}
    </section>
  );
}
