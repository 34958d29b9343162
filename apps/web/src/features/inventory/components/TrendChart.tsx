import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export type TrendSeries = { key: string; name: string; color: string; axis?: 'left' | 'right' };

/** A weekly line chart (spec §9: small charts 300 px high) over rows keyed by `week`. */
export function TrendChart({
  data,
  series,
  format,
  formatRight,
  label,
}: {
  data: ReadonlyArray<Record<string, number | string>>;
  series: readonly TrendSeries[];
  format: (value: number) => string;
  formatRight?: (value: number) => string;
  label: string;
}) {
  const { t } = useTranslation();
  const hasRight = series.some((s) => s.axis === 'right');
  return (
    <div className="h-[300px] w-full" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={[...data]} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="week" tick={{ fill: 'var(--muted-foreground)', fontSize: 11 }} minTickGap={24} />
          <YAxis
            yAxisId="left"
            tick={{ fill: 'var(--muted-foreground)', fontSize: 11 }}
            tickFormatter={(v: number) => format(v)}
            width={80}
          />
          {hasRight && (
            <YAxis
              yAxisId="right"
              orientation="right"
              tick={{ fill: 'var(--muted-foreground)', fontSize: 11 }}
              tickFormatter={(v: number) => (formatRight ?? format)(v)}
              width={64}
            />
          )}
          <Tooltip
            contentStyle={{
              background: 'var(--card)',
              border: '1px solid var(--border)',
              color: 'var(--foreground)',
            }}
            labelFormatter={(week) =>
              t('inventory:charts.weekOf', { week: typeof week === 'string' ? week : '' })
            }
            formatter={(value, name, item) => {
              const right = series.find((s) => s.key === item.dataKey)?.axis === 'right';
              return [(right ? (formatRight ?? format) : format)(Number(value)), name];
            }}
          />
          <Legend />
          {series.map((s) => (
            <Line
              key={s.key}
              yAxisId={s.axis ?? 'left'}
              type="monotone"
              dataKey={s.key}
              name={s.name}
              stroke={s.color}
              dot={false}
              strokeWidth={2}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
