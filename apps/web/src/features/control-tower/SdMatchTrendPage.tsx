import { useQuery } from '@tanstack/react-query';
import { ActivityIcon, GaugeIcon, GitCompareArrowsIcon, TrendingUpDownIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TrendChart } from '@/features/inventory';
import { fetchSdMatch, inventoryKeys } from '@/features/inventory';
import { useFormatters } from '@/lib/settings/useFormatters';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: S&D Match Trend (spec §2; formulas in docs/metrics.md, "Supply and demand match"). */
export default function SdMatchTrendPage() {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const query = useQuery({ queryKey: inventoryKeys.sdMatch, queryFn: fetchSdMatch });
  const data = query.data;
  const hasData = !!data && data.weeks.length > 0;
  const value = (text: string): string | null => (hasData ? text : null);
  return (
    <MetricsScreen
      title={t('controlTower:sdMatch.title')}
      subtitle={t('controlTower:sdMatch.subtitle')}
      error={query.error}
      isLoading={query.isLoading}
      metrics={[
        {
          title: t('controlTower:sdMatch.matchRate'),
          icon: GitCompareArrowsIcon,
          value: value(fmt.percent(data?.cards.matchRate)),
          note: t('inventory:sd.horizon', { weeks: data?.horizonWeeks ?? 0 }),
        },
        {
          title: t('controlTower:sdMatch.supplyVariance'),
          icon: ActivityIcon,
          value: value(fmt.signedPercent(data?.cards.supplyVariance)),
          note: t('inventory:sd.varianceNote'),
        },
        {
          title: t('controlTower:sdMatch.demandVolatility'),
          icon: TrendingUpDownIcon,
          value: value(fmt.percent(data?.cards.demandVolatility)),
          note: t('inventory:sd.volatilityNote'),
        },
        {
          title: t('controlTower:sdMatch.optimizationScore'),
          icon: GaugeIcon,
          value: value(fmt.percent(data?.cards.optimizationScore)),
          note: t('inventory:sd.scoreNote'),
        },
      ]}
      emptyMessage={t('controlTower:sdMatch.chartMessage')}
    >
      {hasData ? (
        <>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{t('controlTower:sdMatch.chartTitle')}</CardTitle>
              <CardDescription>{t('controlTower:sdMatch.chartDescription')}</CardDescription>
              <p className="text-xs text-muted-foreground" data-testid="supply-source">
                {data.supplySource.kind === 'network'
                  ? t('inventory:sd.sourceNetwork', {
                      run: data.supplySource.runId,
                      weeks: data.supplySource.networkWeeks,
                      total: data.horizonWeeks,
                    })
                  : t('inventory:sd.sourcePolicy')}
              </p>
            </CardHeader>
            <CardContent>
              <TrendChart
                label={t('controlTower:sdMatch.chartTitle')}
                data={data.weeks.map((w) => ({ ...w }))}
                series={[
                  { key: 'supply', name: t('inventory:sd.supply'), color: 'var(--primary)' },
                  { key: 'demand', name: t('inventory:sd.demand'), color: 'var(--muted-foreground)' },
                  {
                    key: 'matchRate',
                    name: t('controlTower:sdMatch.matchRate'),
                    color: 'var(--success)',
                    axis: 'right',
                  },
                ]}
                format={(v) => fmt.number(v)}
                formatRight={(v) => fmt.percent(v)}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{t('inventory:sd.worstTitle')}</CardTitle>
              <CardDescription>{t('inventory:sd.worstDescription')}</CardDescription>
            </CardHeader>
            <CardContent className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead>
                  <tr className="border-b border-border text-left text-xs text-muted-foreground">
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t('inventory:table.sku')}
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t('inventory:table.site')}
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t('inventory:table.businessUnit')}
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      {t('inventory:sd.supply')}
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      {t('inventory:sd.demand')}
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      {t('inventory:sd.gap')}
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      {t('controlTower:sdMatch.matchRate')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.worst.length === 0 && (
                    <tr>
                      <td colSpan={7} className="py-4 text-center text-muted-foreground">
                        {t('inventory:sd.worstEmpty', { weeks: data.horizonWeeks })}
                      </td>
                    </tr>
                  )}
                  {data.worst.map((w) => (
                    <tr key={`${w.sku}|${w.site}`} className="border-b border-border">
                      <td className="py-2 pr-4 font-medium">
                        <Link
                          className="text-primary underline-offset-4 hover:underline"
                          to={`/inventory-planning?${new URLSearchParams({ sku: w.sku, site: w.site }).toString()}`}
                        >
                          {w.sku}
                        </Link>
                      </td>
                      <td className="py-2 pr-4">{w.site}</td>
                      <td className="py-2 pr-4">{w.businessUnit}</td>
                      <td className="py-2 pr-4 text-right">{fmt.number(w.supply)}</td>
                      <td className="py-2 pr-4 text-right">{fmt.number(w.demand)}</td>
                      <td className="py-2 pr-4 text-right">{fmt.number(w.gap)}</td>
                      <td className="py-2 text-right">{fmt.percent(w.matchRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </CardContent>
          </Card>
        </>
      ) : null}
    </MetricsScreen>
  );
}
