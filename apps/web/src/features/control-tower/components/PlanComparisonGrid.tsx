import {
  COMPARISON_ROWS,
  comparisonValue,
  isPartialQuarter,
  type Measure,
  type MoneyScale,
  type WorksheetQuarter,
} from '@ps/domain';
import { ArrowLeftRightIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { deltaTone, useScaledMoney } from './money';
import { useFormatters } from '@/lib/settings/useFormatters';

/** Row labels, one literal key per spec row (the catalogue test finds keys by their literal). */
export const ROW_LABEL_KEYS: Record<(typeof COMPARISON_ROWS)[number]['key'], string> = {
  actualBooking: 'controlTower:rows.actualBooking',
  prelimDemandPlan: 'controlTower:rows.prelimDemandPlan',
  finalDemandPlan: 'controlTower:rows.finalDemandPlan',
  deltaFinalToPrelim: 'controlTower:rows.deltaFinalToPrelim',
  deltaPctFinalToPrelim: 'controlTower:rows.deltaPctFinalToPrelim',
  marginPct: 'controlTower:rows.marginPct',
  marketingForecast: 'controlTower:rows.marketingForecast',
  deltaFinalToMarketing: 'controlTower:rows.deltaFinalToMarketing',
  deltaPctFinalToMarketing: 'controlTower:rows.deltaPctFinalToMarketing',
  pubEnsembleForecast: 'controlTower:rows.pubEnsembleForecast',
  deltaFinalToEnsemble: 'controlTower:rows.deltaFinalToEnsemble',
  deltaPctFinalToEnsemble: 'controlTower:rows.deltaPctFinalToEnsemble',
  p1FinalDemandPlan: 'controlTower:rows.p1FinalDemandPlan',
  deltaFinalToP1Final: 'controlTower:rows.deltaFinalToP1Final',
  deltaPctFinalToP1Final: 'controlTower:rows.deltaPctFinalToP1Final',
  p1MarketingForecast: 'controlTower:rows.p1MarketingForecast',
  deltaP1FinalToP1Marketing: 'controlTower:rows.deltaP1FinalToP1Marketing',
  deltaPctP1FinalToP1Marketing: 'controlTower:rows.deltaPctP1FinalToP1Marketing',
};

type Props = {
  quarters: readonly WorksheetQuarter[];
  measure: Measure;
  scale: MoneyScale;
  onToggleMeasure: () => void;
  title: string;
};

/**
 * The plan comparison grid (spec §2): pinned Data column, one column per quarter, the spec's rows
 * in order; missing values '-', zero deltas blank, deltas green or red.
 */
export function PlanComparisonGrid({ quarters, measure, scale, onToggleMeasure, title }: Props) {
  const { t } = useTranslation();
  const scaled = useScaledMoney();
  const { symbol } = useFormatters();
  const cell = (row: (typeof COMPARISON_ROWS)[number], quarter: WorksheetQuarter): string => {
    const value = comparisonValue(quarter, row, measure);
    if (value === null) return '-';
    if (row.kind !== 'value' && value === 0) return '';
    if (row.kind === 'deltaPct') return t('controlTower:review.wholePercent', { value });
    if (row.kind === 'margin') return t('controlTower:review.percent', { value: value.toFixed(2) });
    return scaled(value, scale);
  };
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4" aria-label={title}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-base font-semibold">{title}</h2>
        <Button variant="outline" size="sm" onClick={onToggleMeasure}>
          <ArrowLeftRightIcon className="size-4" aria-hidden />
          {measure === 'revenue' ? t('controlTower:review.showCost') : t('controlTower:review.showRevenue')}
        </Button>
      </div>
      <div className="max-h-[800px] overflow-auto rounded-md border border-border">
        <table className="w-full border-collapse text-sm">
          <thead className="sticky top-0 z-10 bg-muted">
            <tr className="h-10">
              <th scope="col" className="sticky left-0 z-20 min-w-56 bg-muted px-3 text-left font-medium">
                {t('controlTower:review.dataColumn')}
              </th>
              {quarters.map((q) => (
                <th key={q.quarter} scope="col" className="min-w-24 px-3 text-right font-medium">
                  {q.quarter}
                  {isPartialQuarter(q) && (
                    <span className="block text-[10px] font-normal text-muted-foreground" data-partial="true">
                      {t('controlTower:review.partialWeeks', { weeks: q.coverage.weeks, of: q.coverage.of })}
                    </span>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {COMPARISON_ROWS.map((row) => {
              const highlighted = row.key === 'finalDemandPlan';
              return (
                <tr
                  key={row.key}
                  className={cn('h-[35px] border-t border-border', highlighted && 'bg-accent font-semibold')}
                >
                  <th
                    scope="row"
                    className={cn(
                      'sticky left-0 bg-card px-3 text-left font-normal',
                      highlighted && 'bg-accent font-semibold',
                      row.kind !== 'value' && 'pl-6 text-muted-foreground',
                    )}
                  >
                    {t(ROW_LABEL_KEYS[row.key], { symbol })}
                  </th>
                  {quarters.map((q) => {
                    const value = comparisonValue(q, row, measure);
                    return (
                      <td
                        key={q.quarter}
                        className={cn(
                          'px-3 text-right tabular-nums',
                          (row.kind === 'delta' || row.kind === 'deltaPct') && deltaTone(value),
                        )}
                      >
                        {cell(row, q)}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
