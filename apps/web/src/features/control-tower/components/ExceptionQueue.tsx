import type { ExceptionKind, ExceptionRow } from '@ps/domain';
import { ArrowRightIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { useFormatters } from '@/lib/settings/useFormatters';

const KIND_KEYS: Record<ExceptionKind, string> = {
  largeError: 'controlTower:exceptions.largeError',
  persistentBias: 'controlTower:exceptions.persistentBias',
  overrideHurt: 'controlTower:exceptions.overrideHurt',
  outsideInterval: 'controlTower:exceptions.outsideInterval',
};

/** The Alerts card's exception queue, ranked (docs/metrics.md); each row opens the product's worksheet. */
export function ExceptionQueue({ rows }: { rows: readonly ExceptionRow[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <section
      id="exception-queue"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      aria-labelledby="exceptions-heading"
    >
      <div>
        <h2 id="exceptions-heading" className="text-base font-semibold">
          {t('controlTower:exceptions.title')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('controlTower:exceptions.description')}</p>
      </div>
      <div className="max-h-[480px] overflow-auto rounded-md border border-border">
        <table className="w-full border-collapse text-sm">
          <thead className="sticky top-0 bg-muted">
            <tr className="h-10">
              <th scope="col" className="px-3 text-right font-medium">
                {t('controlTower:exceptions.rank')}
              </th>
              <th scope="col" className="px-3 text-left font-medium">
                {t('controlTower:accuracy.columns.pid')}
              </th>
              <th scope="col" className="px-3 text-left font-medium">
                {t('controlTower:exceptions.signals')}
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                {t('controlTower:accuracy.columns.errorValue')}
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                {t('controlTower:exceptions.recentBias')}
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                {t('controlTower:exceptions.overrideCost')}
              </th>
              <th scope="col" className="px-3 text-right font-medium">
                {t('controlTower:exceptions.weeksOutside')}
              </th>
              <th scope="col" className="px-3">
                <span className="sr-only">{t('controlTower:exceptions.open')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.pid} className="h-9 border-t border-border">
                <td className="px-3 text-right tabular-nums">{index + 1}</td>
                <td className="px-3">
                  <div className="font-medium">{row.pid}</div>
                  <div className="text-xs text-muted-foreground">{`${row.bu} · ${row.pf}`}</div>
                </td>
                <td className="px-3">
                  <div className="flex flex-wrap gap-1">
                    {row.kinds.map((kind) => (
                      <Badge key={kind} variant="outline">
                        {t(KIND_KEYS[kind])}
                      </Badge>
                    ))}
                  </div>
                </td>
                <td className="px-3 text-right tabular-nums">{format.currency(row.errorValue, 0)}</td>
                <td className="px-3 text-right tabular-nums">
                  {row.recentBias === null ? '-' : format.percent(row.recentBias)}
                </td>
                <td className="px-3 text-right tabular-nums">
                  {row.overrideCost === null
                    ? '-'
                    : t('controlTower:fva.points', { value: format.number(row.overrideCost, 2) })}
                </td>
                <td className="px-3 text-right tabular-nums">{format.number(row.weeksOutside)}</td>
                <td className="px-3 text-right">
                  <Link
                    to={`/control-tower/demand-planning-review?pid=${encodeURIComponent(row.pid)}`}
                    className="inline-flex items-center gap-1 text-primary hover:underline"
                  >
                    {t('controlTower:exceptions.open')}
                    <ArrowRightIcon className="size-3.5" aria-hidden />
                  </Link>
                </td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={8} className="px-3 py-6 text-center text-muted-foreground">
                  {t('controlTower:exceptions.none')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
