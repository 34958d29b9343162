import {
  ctcSummary,
  worksheetGrowth,
  type CtcLine,
  type MoneyScale,
  type WorksheetQuarter,
} from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { deltaTone, useScaledMoney } from './money';

type Props = { quarters: readonly WorksheetQuarter[]; currentQuarter: string; scale: MoneyScale };

const head = 'h-10 whitespace-nowrap px-3 text-left font-medium';
const num = 'whitespace-nowrap px-3 text-right tabular-nums';

/** The summary panel (spec §2): CTC Change (Q vs Q+) and Growth %, side by side. */
export function CtcSummary({ quarters, currentQuarter, scale }: Props) {
  const { t } = useTranslation();
  const scaled = useScaledMoney();
  const ctc = ctcSummary(quarters, currentQuarter);
  const growth = worksheetGrowth(quarters, currentQuarter);
  const pct = (value: number | null) =>
    value === null
      ? t('controlTower:review.undefinedValue')
      : t('controlTower:review.wholePercent', { value });
  const ctcRows: Array<{ category: string; metric: string; line: CtcLine | null }> = [
    {
      category: t('controlTower:review.demandPlan'),
      metric: t('controlTower:review.rev'),
      line: ctc.demandPlan.revenue,
    },
    { category: '', metric: t('controlTower:review.costShort'), line: ctc.demandPlan.cost },
    {
      category: t('controlTower:review.marketingPlan'),
      metric: t('controlTower:review.rev'),
      line: ctc.marketingPlan?.revenue ?? null,
    },
    { category: '', metric: t('controlTower:review.costShort'), line: ctc.marketingPlan?.cost ?? null },
  ];
  const hasPartial = [growth.revenue, growth.cost].some(
    (g) =>
      [g.qtrToQtr, g.yearToYear].some((row) => Object.values(row.partial).some(Boolean)) ||
      g.qtrToQtr.next4VsLast4Partial,
  );
  const growthRows = [
    {
      label: t('controlTower:review.qtrToQtr'),
      metric: t('controlTower:review.rev'),
      row: growth.revenue.qtrToQtr,
    },
    { label: '', metric: t('controlTower:review.costShort'), row: growth.cost.qtrToQtr },
    {
      label: t('controlTower:review.yrToYr'),
      metric: t('controlTower:review.rev'),
      row: growth.revenue.yearToYear,
    },
    { label: '', metric: t('controlTower:review.costShort'), row: growth.cost.yearToYear },
  ];
  return (
    <div className="grid gap-4 2xl:grid-cols-2">
      <section className="rounded-lg border border-border bg-card p-4" aria-labelledby="ctc-heading">
        <h2 id="ctc-heading" className="mb-3 text-base font-semibold">
          {t('controlTower:review.ctcTitle')}
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead className="bg-muted">
              <tr>
                <th scope="col" className={head}>
                  {t('controlTower:review.category')}
                </th>
                <th scope="col" className={head}>
                  {t('controlTower:review.metric')}
                </th>
                <th scope="col" className={cn(head, 'text-right')}>
                  {t('controlTower:review.p0')}
                </th>
                <th scope="col" className={cn(head, 'text-right')}>
                  {t('controlTower:review.p1')}
                </th>
                <th scope="col" className={cn(head, 'text-right')}>
                  {t('controlTower:review.delta')}
                </th>
                <th scope="col" className={cn(head, 'text-right')}>
                  {t('controlTower:review.deltaPercent')}
                </th>
              </tr>
            </thead>
            <tbody>
              {ctcRows.map((r, i) => (
                <tr key={i} className="h-8 border-t border-border">
                  <th scope="row" className="whitespace-nowrap px-3 text-left font-medium">
                    {r.category}
                  </th>
                  <td className="px-3">{r.metric}</td>
                  <td className={num}>{scaled(r.line?.p0, scale)}</td>
                  <td className={num}>{scaled(r.line?.p1, scale)}</td>
                  <td className={cn(num, deltaTone(r.line?.delta))}>{scaled(r.line?.delta, scale)}</td>
                  <td className={cn(num, deltaTone(r.line?.deltaPercent))}>
                    {r.line ? t('controlTower:review.wholePercent', { value: r.line.deltaPercent }) : '-'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="rounded-lg border border-border bg-card p-4" aria-labelledby="growth-heading">
        <h2 id="growth-heading" className="mb-3 text-base font-semibold">
          {t('controlTower:review.growthTitle')}
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead className="bg-muted">
              <tr>
                <th scope="col" className={head} colSpan={2}>
                  <span className="sr-only">{t('controlTower:review.metric')}</span>
                </th>
                {growth.quarters.map((q) => (
                  <th key={q} scope="col" className={cn(head, 'text-right')}>
                    {q}
                  </th>
                ))}
                <th scope="col" className={cn(head, 'text-right')}>
                  {t('controlTower:review.next4VsLast4')}
                </th>
              </tr>
            </thead>
            <tbody>
              {growthRows.map((r, i) => (
                <tr key={i} className="h-8 border-t border-border">
                  <th scope="row" className="whitespace-nowrap px-3 text-left font-medium">
                    {r.label}
                  </th>
                  <td className="px-3">{r.metric}</td>
                  {growth.quarters.map((q) => {
                    const value = r.row.byQuarter[q] ?? null;
                    return (
                      <td key={q} className={cn(num, deltaTone(value))}>
                        <GrowthFigure text={pct(value)} isPartial={r.row.partial[q] === true} />
                      </td>
                    );
                  })}
                  <td className={cn(num, deltaTone(r.row.next4VsLast4))}>
                    <GrowthFigure text={pct(r.row.next4VsLast4)} isPartial={r.row.next4VsLast4Partial} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {hasPartial && (
          <p className="mt-2 text-xs text-muted-foreground" data-testid="growth-partial-note">
            {t('controlTower:review.partialGrowthNote')}
          </p>
        )}
      </section>
    </div>
  );
}

/** A growth figure; one that compares a partial quarter's weekly average is marked as such. */
function GrowthFigure({ text, isPartial }: { text: string; isPartial: boolean }) {
  const { t } = useTranslation();
  if (!isPartial) return text;
  return (
    <span title={t('controlTower:review.partialGrowth')} data-partial="true">
      {text} ◐
    </span>
  );
}
