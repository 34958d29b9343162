import type { InventoryPage } from '@ps/domain';
import { LightbulbIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useFormatters } from '@/lib/settings/useFormatters';

/** Insights computed from the filtered rows: over 150 %, average change, largest changes. */
export function InsightsCard({ insights }: { insights: InventoryPage['insights'] }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const recommendation =
    insights.itemsOver150 > 0
      ? t('inventory:insights.reviewOver150', { count: insights.itemsOver150 })
      : t('inventory:insights.noneOver150');
  return (
    <Card>
      <CardHeader className="flex flex-row items-center gap-2 pb-2">
        <LightbulbIcon className="size-5 text-muted-foreground" aria-hidden />
        <CardTitle className="text-base">{t('inventory:insights.title')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-3">
        <div>
          <p className="text-sm text-muted-foreground">{t('inventory:insights.over150')}</p>
          <p className="text-2xl font-bold" data-testid="insight-over-150">
            {fmt.number(insights.itemsOver150)}
          </p>
        </div>
        <div>
          <p className="text-sm text-muted-foreground">{t('inventory:insights.avgOverride')}</p>
          <p className="text-2xl font-bold">{fmt.signedPercent(insights.avgOverridePercent)}</p>
        </div>
        <div>
          <p className="text-sm text-muted-foreground">{t('inventory:insights.largestChanges')}</p>
          {insights.largestChanges.length === 0 ? (
            <p className="text-sm">{t('inventory:insights.noOverrides')}</p>
          ) : (
            <ul className="text-sm">
              {insights.largestChanges.map((c) => (
                <li key={`${c.sku}|${c.site}`}>
                  {t('inventory:insights.change', {
                    sku: c.sku,
                    site: c.site,
                    change: fmt.signedPercent(c.changePercent),
                    from: fmt.number(c.recommendedOULTarget),
                    to: fmt.number(c.overrideOULUnits),
                  })}
                </li>
              ))}
            </ul>
          )}
        </div>
        <p className="text-sm md:col-span-3">{recommendation}</p>
      </CardContent>
    </Card>
  );
}
