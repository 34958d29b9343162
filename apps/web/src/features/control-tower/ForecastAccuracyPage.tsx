import { MAX_LAG, MIN_LAG, type AccuracyLevel } from '@ps/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, CrosshairIcon, GaugeIcon, PercentIcon, ScaleIcon, SigmaIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useFormatters } from '@/lib/settings/useFormatters';
import { PageHeading } from '@/components/PageHeading';
import { MODULES } from '@/features/shell';
import { controlTowerKeys, fetchAccuracy, fetchExceptions } from './api/control-tower.api';
import { AccuracyTable } from './components/AccuracyTable';
import { ExceptionQueue } from './components/ExceptionQueue';
import { MetricCard } from './components/MetricCard';
import { SegmentedControl } from './components/SegmentedControl';
import { ValueAddPanel } from './components/ValueAddPanel';

const LAGS = Array.from({ length: MAX_LAG - MIN_LAG + 1 }, (_, i) => MIN_LAG + i);
const LEVEL_OPTIONS = [
  { value: 'businessUnit', labelKey: 'controlTower:accuracy.byBusinessUnit' },
  { value: 'family', labelKey: 'controlTower:accuracy.byFamily' },
  { value: 'product', labelKey: 'controlTower:accuracy.byProduct' },
] as const;

/**
 * Control tower: Forecast Accuracy Metrics (spec §2), from the forecast snapshots against actual
 * bookings at the chosen lag; the Alerts card opens the exception queue (docs/metrics.md).
 */
export default function ForecastAccuracyPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [lag, setLag] = useState(1);
  const [level, setLevel] = useState<AccuracyLevel>('businessUnit');
  const [showExceptions, setShowExceptions] = useState(false);
  const report = useQuery({
    queryKey: controlTowerKeys.accuracy(lag),
    queryFn: ({ signal }) => fetchAccuracy(lag, signal),
    placeholderData: keepPreviousData,
  });
  const exceptions = useQuery({
    queryKey: controlTowerKeys.exceptions(lag),
    queryFn: ({ signal }) => fetchExceptions(lag, signal),
    enabled: showExceptions,
  });
  const data = report.data;
  const overall = data?.overall;
  const pct = (value: number | null | undefined) =>
    value === null || value === undefined ? '-' : format.percent(value);
  const rows = !data
    ? []
    : level === 'businessUnit'
      ? data.byBusinessUnit
      : level === 'family'
        ? data.byFamily
        : data.byProduct;

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={t('controlTower:accuracy.title')}
        subtitle={t('controlTower:accuracy.subtitle')}
        badges={
          <Badge variant="outline">{`${t(MODULES.controlTower.nameKey)} ${MODULES.controlTower.version}`}</Badge>
        }
      />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor="accuracy-lag">{t('controlTower:accuracy.lag')}</Label>
          <Select value={String(lag)} onValueChange={(v) => setLag(Number(v))}>
            <SelectTrigger id="accuracy-lag" className="w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {LAGS.map((l) => (
                <SelectItem key={l} value={String(l)}>
                  {t('controlTower:accuracy.lagOption', { count: l })}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {data && (
          <p className="text-sm text-muted-foreground">
            {data.fromWeek && data.toWeek
              ? t('controlTower:accuracy.period', {
                  pairs: format.number(data.overall.pairs),
                  from: format.date(data.fromWeek),
                  to: format.date(data.toWeek),
                  snapshots: format.number(data.snapshots),
                })
              : t('controlTower:accuracy.nothingToCompare')}
          </p>
        )}
      </div>
      <section
        aria-label={t('controlTower:summaryLabel', { title: t('controlTower:accuracy.title') })}
        className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-6"
      >
        <MetricCard
          title={t('controlTower:accuracy.overall')}
          icon={CrosshairIcon}
          value={data ? pct(overall?.accuracy) : null}
          note={t('controlTower:accuracy.overallNote')}
        />
        <MetricCard
          title={t('controlTower:accuracy.mape')}
          icon={PercentIcon}
          value={data ? pct(overall?.mape) : null}
          note={t('controlTower:accuracy.mapeNote')}
        />
        <MetricCard
          title={t('controlTower:accuracy.bias')}
          icon={ScaleIcon}
          value={data ? pct(overall?.bias) : null}
          note={t('controlTower:accuracy.biasNote')}
        />
        <button
          type="button"
          className="rounded-xl text-left outline-none focus-visible:ring-2 focus-visible:ring-ring"
          onClick={() => {
            setShowExceptions(true);
            requestAnimationFrame(() =>
              document.getElementById('exception-queue')?.scrollIntoView({ behavior: 'smooth' }),
            );
          }}
          aria-expanded={showExceptions}
        >
          <MetricCard
            title={t('controlTower:accuracy.alerts')}
            icon={AlertTriangleIcon}
            value={data ? format.number(data.alerts) : null}
            note={t('controlTower:accuracy.alertsNote')}
          />
        </button>
        <MetricCard
          title={t('controlTower:accuracy.wape')}
          icon={SigmaIcon}
          value={data ? pct(overall?.wape) : null}
          note={t('controlTower:accuracy.wapeNote')}
        />
        <MetricCard
          title={t('controlTower:accuracy.mase')}
          icon={GaugeIcon}
          value={
            data
              ? overall?.mase === null || overall?.mase === undefined
                ? '-'
                : format.number(overall.mase, 3)
              : null
          }
          note={t('controlTower:accuracy.maseNote')}
        />
      </section>
      {showExceptions && exceptions.data && <ExceptionQueue rows={exceptions.data} />}
      {data && <ValueAddPanel report={data} />}
      <section
        className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
        aria-labelledby="accuracy-table-heading"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="accuracy-table-heading" className="text-base font-semibold">
              {t('controlTower:accuracy.tableTitle')}
            </h2>
            {level === 'product' && data && data.productCount > data.byProduct.length && (
              <p className="text-xs text-muted-foreground">
                {t('controlTower:accuracy.productLimit', {
                  shown: data.byProduct.length,
                  total: data.productCount,
                })}
              </p>
            )}
          </div>
          <SegmentedControl
            label={t('controlTower:accuracy.level')}
            value={level}
            options={LEVEL_OPTIONS}
            onChange={setLevel}
          />
        </div>
        {data ? (
          <AccuracyTable rows={rows} level={level} />
        ) : (
          <p className="text-sm text-muted-foreground">{t('common:loading')}</p>
        )}
      </section>
    </div>
  );
}
