import { isPartialQuarter, worksheetGrowth, type MoneyScale, type WorksheetQuarter } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useScaledMoney } from './money';

/** Spec §9: y domains padded 10 % (small charts) or 5 % (large chart, zero values ignored). */
export function paddedDomain(
  values: readonly number[],
  padding: number,
  ignoreZero: boolean,
): [number, number] {
  const shown = values.filter((v) => Number.isFinite(v) && (!ignoreZero || v !== 0));
  if (shown.length === 0) return [0, 1];
  const min = Math.min(...shown);
  const max = Math.max(...shown);
  const span = max - min || Math.abs(max) || 1;
  return [min - span * padding, max + span * padding];
}

const SERIES = [
  { key: 'actualBooking', labelKey: 'controlTower:rows.actualBooking', color: '#64748b' },
  { key: 'prelimDemandPlan', labelKey: 'controlTower:rows.prelimDemandPlan', color: '#0ea5e9' },
  { key: 'finalDemandPlan', labelKey: 'controlTower:rows.finalDemandPlan', color: '#2563eb' },
  { key: 'marketingForecast', labelKey: 'controlTower:rows.marketingForecast', color: '#f59e0b' },
  { key: 'p1FinalDemandPlan', labelKey: 'controlTower:rows.p1FinalDemandPlan', color: '#a855f7' },
] as const;
const REVENUE_COLOR = '#2563eb';
const COST_COLOR = '#f97316';

type Props = { quarters: readonly WorksheetQuarter[]; currentQuarter: string; scale: MoneyScale };

const tooltipStyle = {
  backgroundColor: 'var(--card)',
  border: '1px solid var(--border)',
  color: 'var(--card-foreground)',
  borderRadius: 6,
};

/** Chart view (spec §2): Quarter to Quarter and Year to Year growth, and quarterly revenue of five plans. */
export function WorksheetCharts({ quarters, currentQuarter, scale }: Props) {
  const { t } = useTranslation();
  const growth = worksheetGrowth(quarters, currentQuarter);
  const small = [
    { id: 'qtr', titleKey: 'controlTower:review.qtrChartTitle', pick: 'qtrToQtr' },
    { id: 'yr', titleKey: 'controlTower:review.yrChartTitle', pick: 'yearToYear' },
  ] as const;
  const revenueData = quarters.map((q) => ({
    quarter: q.quarter,
    ...Object.fromEntries(SERIES.map((s) => [s.key, q[s.key]?.revenue ?? null])),
  }));
  const large = quarters
    .flatMap((q) => SERIES.map((s) => q[s.key]?.revenue ?? null))
    .filter((v): v is number => v !== null);
  const scaled = useScaledMoney();
  const money = (value: number) => scaled(value, scale);
  const percent = (value: number) => t('controlTower:review.wholePercent', { value });
  // Partial quarters (the first of the history, the last of the horizon) are marked on the axis,
  // so a total that drops there reads as fewer weeks, not as less demand.
  const partial = new Set(quarters.filter(isPartialQuarter).map((q) => q.quarter));
  const quarterTick = (quarter: string) => (partial.has(quarter) ? `${quarter} ◐` : quarter);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 xl:grid-cols-2">
        {small.map((chart) => {
          const isPartial = (q: string) =>
            growth.revenue[chart.pick].partial[q] === true || growth.cost[chart.pick].partial[q] === true;
          const growthTick = (q: string) => (isPartial(q) ? `${q} ◐` : q);
          const data = growth.quarters.map((q) => ({
            quarter: q,
            revenue: growth.revenue[chart.pick].byQuarter[q] ?? null,
            cost: growth.cost[chart.pick].byQuarter[q] ?? null,
          }));
          const values = data.flatMap((d) => [d.revenue, d.cost]).filter((v): v is number => v !== null);
          return (
            <section
              key={chart.id}
              className="rounded-lg border border-border bg-card p-4"
              aria-label={t(chart.titleKey)}
            >
              <h2 className="mb-2 text-base font-semibold">{t(chart.titleKey)}</h2>
              {values.length === 0 && (
                <p className="text-xs text-muted-foreground">{t('controlTower:review.notEnoughHistory')}</p>
              )}
              <div className="h-[300px]">
                <ResponsiveContainer width="100%" height="100%">
                  <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                    <XAxis
                      dataKey="quarter"
                      stroke="var(--muted-foreground)"
                      fontSize={12}
                      tickFormatter={growthTick}
                    />
                    <YAxis
                      stroke="var(--muted-foreground)"
                      fontSize={12}
                      domain={paddedDomain(values, 0.1, false)}
                      tickFormatter={(v: number) => percent(Math.round(v))}
                    />
                    <Tooltip contentStyle={tooltipStyle} formatter={(v) => percent(Number(v))} />
                    <Legend />
                    <Line
                      type="monotone"
                      dataKey="revenue"
                      name={t('controlTower:review.revenue')}
                      stroke={REVENUE_COLOR}
                      strokeWidth={2}
                      connectNulls
                      isAnimationActive={false}
                    />
                    <Line
                      type="monotone"
                      dataKey="cost"
                      name={t('controlTower:review.cost')}
                      stroke={COST_COLOR}
                      strokeWidth={2}
                      connectNulls
                      isAnimationActive={false}
                    />
                  </LineChart>
                </ResponsiveContainer>
              </div>
            </section>
          );
        })}
      </div>
      <section
        className="rounded-lg border border-border bg-card p-4"
        aria-label={t('controlTower:review.quarterlyChartTitle')}
      >
        <h2 className="mb-2 text-base font-semibold">{t('controlTower:review.quarterlyChartTitle')}</h2>
        <div className="h-[500px]">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={revenueData} margin={{ top: 8, right: 16, bottom: 8, left: 16 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
              <XAxis
                dataKey="quarter"
                stroke="var(--muted-foreground)"
                fontSize={12}
                tickFormatter={quarterTick}
              />
              <YAxis
                stroke="var(--muted-foreground)"
                fontSize={12}
                width={72}
                domain={paddedDomain(large, 0.05, true)}
                tickFormatter={money}
              />
              <Tooltip contentStyle={tooltipStyle} formatter={(v) => money(Number(v))} />
              <Legend />
              {SERIES.map((s) => (
                <Line
                  key={s.key}
                  type="monotone"
                  dataKey={s.key}
                  name={t(s.labelKey)}
                  stroke={s.color}
                  strokeWidth={s.key === 'finalDemandPlan' ? 3 : 2}
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
        {partial.size > 0 && (
          <p className="mt-2 text-xs text-muted-foreground" data-testid="chart-partial-note">
            {t('controlTower:review.partialChartNote', {
              quarters: quarters
                .filter(isPartialQuarter)
                .map((q) =>
                  t('controlTower:review.partialQuarter', {
                    quarter: q.quarter,
                    weeks: q.coverage.weeks,
                    of: q.coverage.of,
                  }),
                )
                .join(', '),
            })}
          </p>
        )}
      </section>
    </div>
  );
}
