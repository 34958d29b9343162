import type { SolveResult } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';

/** Utilisation above this is tight: a planner looks there first. */
const TIGHT_PERCENT = 90;

type Row = { key: string; name: string; used: number; capacity: number; percent: number; isClosed: boolean };

function Bars({ title, rows }: { title: string; rows: Row[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <div className="flex flex-col gap-3">
      <h4 className="text-sm font-semibold">{title}</h4>
      {rows.map((row) => (
        <div key={row.key} className="flex flex-col gap-1">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className={cn(row.isClosed && 'text-muted-foreground line-through')}>{row.name}</span>
            <span className="text-xs text-muted-foreground tabular-nums">
              {row.isClosed
                ? t('optichain:diagram.closed')
                : t('optichain:utilisation.detail', {
                    used: format.number(row.used),
                    capacity: format.number(row.capacity),
                    percent: format.number(row.percent, 1),
                  })}
            </span>
          </div>
          <div className="h-2 overflow-hidden rounded-full bg-muted">
            <div
              className={cn(
                'h-full rounded-full',
                row.percent >= TIGHT_PERCENT ? 'bg-warning' : 'bg-success',
              )}
              style={{ width: `${Math.min(100, row.percent)}%` }}
            />
          </div>
        </div>
      ))}
    </div>
  );
}

/** Capacity used over the horizon, per plant (families asked for) and per DC (throughput). */
export function Utilisation({ result }: { result: SolveResult }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6 md:grid-cols-2" data-testid="utilisation">
      <Bars
        title={t('optichain:utilisation.plants')}
        rows={result.plants.map((p) => ({
          key: `p${p.plantId}`,
          name: p.name,
          used: p.productionUnits,
          capacity: p.capacityUnits,
          percent: p.utilisationPercent,
          isClosed: false,
        }))}
      />
      <Bars
        title={t('optichain:utilisation.dcs')}
        rows={result.dcs.map((dc) => ({
          key: `d${dc.dcId}`,
          name: dc.name,
          used: dc.throughputUnits,
          capacity: dc.capacityUnits,
          percent: dc.utilisationPercent,
          isClosed: !dc.isOpen,
        }))}
      />
    </div>
  );
}
