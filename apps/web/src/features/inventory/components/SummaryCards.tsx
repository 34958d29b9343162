import type { InventoryPage } from '@ps/domain';
import { BoxesIcon, PencilLineIcon, PercentIcon, ShieldIcon, SlidersHorizontalIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useFormatters } from '@/lib/settings/useFormatters';

/**
 * Total Items, Modified Items, Overrides Active, Avg Override % (spec §2), for the current filter,
 * and how much the forecast quantiles change the safety stock against the normal formula.
 */
export function SummaryCards({ summary }: { summary: InventoryPage['summary'] }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const normal = summary.safetyStockNormalUnits;
  const safetyChange = normal > 0 ? (100 * (summary.safetyStockUnits - normal)) / normal : 0;
  const cards: { title: string; value: string; icon: typeof BoxesIcon; detail?: string }[] = [
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
    {
      title: t('inventory:summary.safetyStock'),
      value: fmt.signedPercent(safetyChange),
      icon: ShieldIcon,
      detail: t('inventory:summary.safetyStockDetail', {
        quantile: fmt.number(summary.safetyStockUnits),
        normal: fmt.number(normal),
      }),
    },
  ];
  return (
    <section aria-label={t('inventory:summary.label')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
      {cards.map(({ title, value, icon: Icon, detail }) => (
        <Card key={title}>
          <CardHeader className="flex flex-row items-center justify-between gap-2 pb-2">
            <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
            <Icon className="size-5 text-muted-foreground" aria-hidden />
          </CardHeader>
          <CardContent>
            <p className="text-3xl font-bold">{value}</p>
            {detail && <p className="mt-1 text-xs text-muted-foreground">{detail}</p>}
          </CardContent>
        </Card>
      ))}
    </section>
  );
}
