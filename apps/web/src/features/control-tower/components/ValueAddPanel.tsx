import { FVA_STEPS, forecastValueAdd, type AccuracyReport, type FvaFigures } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';
import { deltaTone } from './money';

const STEP_KEYS = {
  naive: 'controlTower:fva.naive',
  statistical: 'controlTower:fva.statistical',
  prelim: 'controlTower:fva.prelim',
  final: 'controlTower:fva.final',
} as const;

/**
 * Forecast value add: the WAPE of naive → statistical → prelim → final over the same weeks and
 * lag, and the points each step gained (green) or lost (red); overall, by BU and by reason code.
 */
export function ValueAddPanel({ report }: { report: AccuracyReport }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const points = (value: number | null) =>
    value === null ? '-' : t('controlTower:fva.points', { value: format.number(value, 2) });
  const line = (fva: FvaFigures) => forecastValueAdd(fva);
  const groups = [
    { key: 'all', label: t('controlTower:fva.allProducts'), fva: report.fva },
    ...report.byBusinessUnit.map((r) => ({ key: `bu:${r.bu}`, label: r.bu, fva: r.fva })),
    ...report.byReason.map((r) => ({
      key: `reason:${r.reasonCode ?? ''}`,
      label: r.reasonCode
        ? t('controlTower:fva.reason', { reason: r.reasonCode })
        : t('controlTower:fva.noOverride'),
      fva: r.fva,
    })),
  ];
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      aria-labelledby="fva-heading"
    >
      <div>
        <h2 id="fva-heading" className="text-base font-semibold">
          {t('controlTower:fva.title')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('controlTower:fva.description')}</p>
      </div>
      <div className="overflow-auto rounded-md border border-border">
        <table className="w-full border-collapse text-sm">
          <thead className="bg-muted">
            <tr className="h-10">
              <th scope="col" className="px-3 text-left font-medium">
                {t('controlTower:fva.group')}
              </th>
              {FVA_STEPS.map((step) => (
                <th key={step} scope="col" className="px-3 text-right font-medium">
                  {t(STEP_KEYS[step])}
                </th>
              ))}
              <th scope="col" className="px-3 text-right font-medium">
                {t('controlTower:fva.overrideValueAdd')}
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g, index) => {
              const steps = line(g.fva);
              const overrides =
                g.fva.statistical === null || g.fva.final === null ? null : g.fva.statistical - g.fva.final;
              return (
                <tr key={g.key} className={cn('h-8 border-t border-border', index === 0 && 'font-semibold')}>
                  <th scope="row" className="px-3 text-left font-normal">
                    {g.label}
                  </th>
                  {steps.map((s) => (
                    <td key={s.step} className="px-3 text-right tabular-nums">
                      {format.percent(s.wape)}
                      {s.valueAdd !== null && (
                        <span className={cn('ml-2 text-xs', deltaTone(s.valueAdd))}>
                          {points(s.valueAdd)}
                        </span>
                      )}
                    </td>
                  ))}
                  <td className={cn('px-3 text-right tabular-nums', deltaTone(overrides))}>
                    {points(overrides)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
