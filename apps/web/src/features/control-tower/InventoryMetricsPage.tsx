import { useQuery } from '@tanstack/react-query';
import { PackageXIcon, RefreshCcwIcon, ShieldCheckIcon, WarehouseIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TrendChart } from '@/features/inventory';
import { fetchInventoryMetrics, inventoryKeys } from '@/features/inventory';
import { useFormatters } from '@/lib/settings/useFormatters';
import { MetricsScreen } from './components/MetricsScreen';

/** Control tower: Inventory Metrics (spec §2; formulas in docs/metrics.md, "Inventory"). */
export default function InventoryMetricsPage() {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const query = useQuery({ queryKey: inventoryKeys.metrics, queryFn: fetchInventoryMetrics });
  const data = query.data;
  const hasData = !!data && data.weeks.length > 0;
  const value = (text: string): string | null => (hasData ? text : null);
  return (
    <MetricsScreen
      title={t('controlTower:inventory.title')}
      subtitle={t('controlTower:inventory.subtitle')}
      error={query.error}
      isLoading={query.isLoading}
      metrics={[
        {
          title: t('controlTower:inventory.totalValue'),
          icon: WarehouseIcon,
          value: value(fmt.currency(data?.cards.totalInventoryValue, 0)),
          note: data?.asOf ? t('inventory:metrics.asOf', { date: fmt.date(data.asOf) }) : undefined,
        },
        {
          title: t('controlTower:inventory.turnover'),
          icon: RefreshCcwIcon,
          value: value(t('inventory:metrics.turns', { value: fmt.number(data?.cards.inventoryTurnover, 1) })),
          note: t('inventory:metrics.last52'),
        },
        {
          title: t('controlTower:inventory.stockouts'),
          icon: PackageXIcon,
          value: value(fmt.number(data?.cards.stockouts)),
          note: t('inventory:metrics.stockoutNote'),
        },
        {
          title: t('controlTower:inventory.serviceLevel'),
          icon: ShieldCheckIcon,
          value: value(fmt.percent(data?.cards.serviceLevel)),
          note: t('controlTower:inventory.serviceTarget'),
        },
      ]}
      emptyMessage={t('controlTower:inventory.positionMessage')}
    >
      {hasData ? (
        <>
          <div className="grid gap-4 xl:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle className="text-base">{t('controlTower:inventory.positionTitle')}</CardTitle>
                <CardDescription>{t('inventory:metrics.valueTrend')}</CardDescription>
              </CardHeader>
              <CardContent>
                <TrendChart
                  label={t('inventory:metrics.valueTrend')}
                  data={data.weeks.map((w) => ({
                    week: w.week,
                    inventoryValue: w.inventoryValue,
                    serviceLevel: w.serviceLevel,
                  }))}
                  series={[
                    {
                      key: 'inventoryValue',
                      name: t('controlTower:inventory.totalValue'),
                      color: 'var(--primary)',
                    },
                    {
                      key: 'serviceLevel',
                      name: t('controlTower:inventory.serviceLevel'),
                      color: 'var(--success)',
                      axis: 'right',
                    },
                  ]}
                  format={(v) => fmt.currency(v, 0)}
                  formatRight={(v) => fmt.percent(v)}
                />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle className="text-base">{t('inventory:metrics.flowTitle')}</CardTitle>
                <CardDescription>{t('inventory:metrics.flowDescription')}</CardDescription>
              </CardHeader>
              <CardContent>
                <TrendChart
                  label={t('inventory:metrics.flowTitle')}
                  data={data.weeks.map((w) => ({
                    week: w.week,
                    stockouts: w.stockouts,
                    turnover: w.turnover,
                  }))}
                  series={[
                    {
                      key: 'stockouts',
                      name: t('controlTower:inventory.stockouts'),
                      color: 'var(--destructive)',
                    },
                    {
                      key: 'turnover',
                      name: t('controlTower:inventory.turnover'),
                      color: 'var(--primary)',
                      axis: 'right',
                    },
                  ]}
                  format={(v) => fmt.number(v)}
                  formatRight={(v) => fmt.number(v, 1)}
                />
              </CardContent>
            </Card>
          </div>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{t('inventory:metrics.byBusinessUnit')}</CardTitle>
            </CardHeader>
            <CardContent className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead>
                  <tr className="border-b border-border text-left text-xs text-muted-foreground">
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t('inventory:table.businessUnit')}
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      {t('controlTower:inventory.totalValue')}
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      {t('controlTower:inventory.turnover')}
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      {t('controlTower:inventory.stockouts')}
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      {t('controlTower:inventory.serviceLevel')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.byBusinessUnit.map((bu) => (
                    <tr key={bu.businessUnit} className="border-b border-border">
                      <td className="py-2 pr-4 font-medium">{bu.businessUnit}</td>
                      <td className="py-2 pr-4 text-right">{fmt.currency(bu.inventoryValue, 0)}</td>
                      <td className="py-2 pr-4 text-right">{fmt.number(bu.turnover, 1)}</td>
                      <td className="py-2 pr-4 text-right">{fmt.number(bu.stockouts)}</td>
                      <td
                        className={
                          bu.serviceLevel >= data.serviceTarget
                            ? 'py-2 text-right text-success'
                            : 'py-2 text-right text-destructive'
                        }
                      >
                        {fmt.percent(bu.serviceLevel)}
                      </td>
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
