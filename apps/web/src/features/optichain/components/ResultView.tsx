import type { NetworkData, OptimisationRunDetail } from '@ps/domain';
import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useFormatters } from '@/lib/settings/useFormatters';
import { CostBreakdown } from './CostBreakdown';
import { FlowsTable } from './FlowsTable';
import { NetworkDiagram } from './NetworkDiagram';
import { Utilisation } from './Utilisation';

function Kpi({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  testId?: string;
}) {
  return (
    <Card>
      <CardContent className="@container flex min-w-0 flex-col gap-1 p-4">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        {/* Shrinks with the card instead of overflowing it (a total landed cost in the billions). */}
        <span
          className="text-[length:clamp(0.875rem,10cqi,1.5rem)] font-bold whitespace-nowrap tabular-nums"
          data-testid={testId}
        >
          {value}
        </span>
        {note && <span className="text-xs text-muted-foreground">{note}</span>}
      </CardContent>
    </Card>
  );
}

/** One solve's outcome: headline figures, the network diagram, costs, utilisation, unmet demand and flows. */
export function ResultView({ run, network }: { run: OptimisationRunDetail; network: NetworkData }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const result = run.result;
  if (!result) return null;
  const openDcs = result.dcs.filter((dc) => dc.isOpen).length;
  return (
    <div className="flex flex-col gap-6" data-testid="run-result">
      {result.message && (
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          <div className="flex flex-col gap-1">
            <span className="font-semibold">{t('optichain:result.noPlan')}</span>
            <span data-testid="result-message">{result.message}</span>
          </div>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        <Kpi
          label={t('optichain:kpi.totalCost')}
          value={result.costs ? format.currency(result.costs.total, 0) : t('optichain:kpi.none')}
          note={t('optichain:kpi.horizonNote', { periods: run.settings.horizon.periods })}
          testId="kpi-total-cost"
        />
        <Kpi
          label={t('optichain:kpi.service')}
          value={format.percent(result.servicePercent)}
          note={t('optichain:kpi.serviceNote', {
            met: format.number(result.metUnits),
            demand: format.number(result.demandUnits),
          })}
          testId="kpi-service"
        />
        <Kpi
          label={t('optichain:kpi.unmet')}
          value={format.number(result.unmetUnits)}
          note={t('optichain:kpi.unmetNote')}
        />
        <Kpi
          label={t('optichain:kpi.openDcs')}
          value={t('optichain:kpi.openOf', { open: openDcs, total: result.dcs.length })}
          testId="kpi-open-dcs"
        />
        <Kpi
          label={t('optichain:kpi.gap')}
          value={
            result.mipGapPercent === null ? t('optichain:kpi.none') : format.percent(result.mipGapPercent)
          }
          note={result.status === 'optimal' ? t('optichain:status.optimal') : t('optichain:status.timeLimit')}
        />
        <Kpi
          label={t('optichain:kpi.model')}
          value={t('optichain:kpi.seconds', { seconds: format.number(result.solveSeconds, 2) })}
          note={t('optichain:kpi.modelNote', {
            rows: format.number(result.modelSize.rows),
            columns: format.number(result.modelSize.columns),
            integers: format.number(result.modelSize.integers),
          })}
        />
      </div>
      <div className="grid gap-6 xl:grid-cols-3">
        <Card className="xl:col-span-2">
          <CardHeader>
            <CardTitle>{t('optichain:diagram.title')}</CardTitle>
            <CardDescription>{t('optichain:diagram.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <NetworkDiagram network={network} result={result} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('optichain:cost.title')}</CardTitle>
            <CardDescription>{t('optichain:cost.description')}</CardDescription>
          </CardHeader>
          <CardContent>{result.costs && <CostBreakdown costs={result.costs} />}</CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t('optichain:utilisation.title')}</CardTitle>
          <CardDescription>{t('optichain:utilisation.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <Utilisation result={result} />
        </CardContent>
      </Card>
      {result.unmet.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>{t('optichain:unmet.title')}</CardTitle>
            <CardDescription>{t('optichain:unmet.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm" aria-label={t('optichain:unmet.title')}>
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th className="py-1.5 font-medium">{t('optichain:flows.to')}</th>
                  <th className="py-1.5 font-medium">{t('optichain:flows.family')}</th>
                  <th className="py-1.5 font-medium">{t('optichain:flows.period')}</th>
                  <th className="py-1.5 text-right font-medium">{t('optichain:flows.units')}</th>
                </tr>
              </thead>
              <tbody className="tabular-nums">
                {result.unmet.map((row) => (
                  <tr
                    key={`${row.region}|${row.family}|${row.period}`}
                    className="border-b border-border last:border-0"
                  >
                    <td className="py-1.5">{row.region}</td>
                    <td className="py-1.5">{row.family}</td>
                    <td className="py-1.5">{row.period}</td>
                    <td className="py-1.5 text-right">{format.number(row.units)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t('optichain:flows.title')}</CardTitle>
          <CardDescription>{t('optichain:flows.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <FlowsTable flows={result.flows} runId={run.id} />
        </CardContent>
      </Card>
    </div>
  );
}
