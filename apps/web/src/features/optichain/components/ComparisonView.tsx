import type { OptimisationRun } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { LabelledSelect } from './LabelledSelect';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { cn } from '@/lib/cn';
import { fetchComparison, optichainKeys } from '../optichain-api';
import { COST_LABELS } from './CostBreakdown';

/** Flow changes listed; the rest are counted. */
const SHOWN_CHANGES = 25;

const deltaClass = (delta: number, isCost: boolean) =>
  delta === 0 ? '' : delta > 0 === isCost ? 'text-destructive' : 'text-success';

/** A scenario run beside a baseline run: cost by component, service, DCs open and the flows that moved. */
export function ComparisonView({
  runs,
  baseId,
  scenarioId,
  onChange,
}: {
  runs: readonly OptimisationRun[];
  baseId: number | null;
  scenarioId: number | null;
  onChange: (ids: { base: number | null; scenario: number | null }) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const solved = runs.filter((run) => run.status === 'succeeded' && run.summary?.totalCost != null);
  const comparison = useQuery({
    queryKey: optichainKeys.comparison(baseId ?? 0, scenarioId ?? 0),
    queryFn: () => fetchComparison(baseId!, scenarioId!),
    enabled: baseId !== null && scenarioId !== null,
  });
  const runLabel = (run: OptimisationRun) =>
    t('optichain:compare.runLabel', { id: run.id, name: run.scenarioName ?? t('optichain:solve.baseline') });
  const picker = (label: string, value: number | null, onPick: (id: number) => void, testId: string) => (
    <LabelledSelect
      label={label}
      value={value === null ? '' : String(value)}
      onChange={(id) => onPick(Number(id))}
      options={solved.map((run) => ({ value: String(run.id), label: runLabel(run) }))}
      triggerClass="w-64"
      placeholder={t('optichain:compare.choose')}
      testId={testId}
    />
  );
  const data = comparison.data;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-3">
        {picker(
          t('optichain:compare.base'),
          baseId,
          (base) => onChange({ base, scenario: scenarioId }),
          'compare-base',
        )}
        {picker(
          t('optichain:compare.scenario'),
          scenarioId,
          (scenario) => onChange({ base: baseId, scenario }),
          'compare-scenario',
        )}
      </div>
      {comparison.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorText(comparison.error)}
        </p>
      )}
      {!data && !comparison.isError && (
        <p className="text-sm text-muted-foreground">{t('optichain:compare.hint')}</p>
      )}
      {data && (
        <div className="grid gap-6 xl:grid-cols-2" data-testid="comparison">
          <div className="flex flex-col gap-4">
            <table className="w-full text-sm" aria-label={t('optichain:compare.costTitle')}>
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th className="py-1.5 font-medium">{t('optichain:compare.component')}</th>
                  <th className="py-1.5 text-right font-medium">{t('optichain:compare.base')}</th>
                  <th className="py-1.5 text-right font-medium">{t('optichain:compare.scenario')}</th>
                  <th className="py-1.5 text-right font-medium">{t('optichain:compare.delta')}</th>
                </tr>
              </thead>
              <tbody className="tabular-nums">
                {data.costs.map((row) => (
                  <tr
                    key={row.component}
                    className={cn(
                      'border-b border-border last:border-0',
                      row.component === 'total' && 'font-semibold',
                    )}
                    data-testid={`compare-${row.component}`}
                  >
                    <td className="py-1.5">{t(COST_LABELS[row.component])}</td>
                    <td className="py-1.5 text-right">{format.currency(row.base, 0)}</td>
                    <td className="py-1.5 text-right">{format.currency(row.scenario, 0)}</td>
                    <td className={cn('py-1.5 text-right', deltaClass(row.delta, true))}>
                      {format.currency(row.delta, 0)}
                    </td>
                  </tr>
                ))}
                <tr className="border-b border-border">
                  <td className="py-1.5">{t('optichain:kpi.service')}</td>
                  <td className="py-1.5 text-right">{format.percent(data.servicePercent.base)}</td>
                  <td className="py-1.5 text-right">{format.percent(data.servicePercent.scenario)}</td>
                  <td className={cn('py-1.5 text-right', deltaClass(data.servicePercent.delta, false))}>
                    {format.signedPercent(data.servicePercent.delta)}
                  </td>
                </tr>
                <tr>
                  <td className="py-1.5">{t('optichain:kpi.unmet')}</td>
                  <td className="py-1.5 text-right">{format.number(data.unmetUnits.base)}</td>
                  <td className="py-1.5 text-right">{format.number(data.unmetUnits.scenario)}</td>
                  <td className={cn('py-1.5 text-right', deltaClass(data.unmetUnits.delta, true))}>
                    {format.number(data.unmetUnits.delta)}
                  </td>
                </tr>
              </tbody>
            </table>
            <div className="flex flex-col gap-2">
              <h4 className="text-sm font-semibold">{t('optichain:compare.dcs')}</h4>
              <div className="flex flex-wrap gap-2" data-testid="compare-dcs">
                {data.dcs.map((dc) => (
                  <Badge
                    key={dc.name}
                    variant={
                      dc.baseOpen === dc.scenarioOpen
                        ? 'outline'
                        : dc.scenarioOpen
                          ? 'default'
                          : 'destructive'
                    }
                    data-dc={dc.name}
                  >
                    {dc.baseOpen === dc.scenarioOpen
                      ? t(dc.scenarioOpen ? 'optichain:compare.dcOpen' : 'optichain:compare.dcClosed', {
                          dc: dc.name,
                        })
                      : t(dc.scenarioOpen ? 'optichain:compare.dcOpened' : 'optichain:compare.dcClosedNow', {
                          dc: dc.name,
                        })}
                  </Badge>
                ))}
              </div>
            </div>
          </div>
          <div className="flex flex-col gap-2">
            <h4 className="text-sm font-semibold">{t('optichain:compare.flowsTitle')}</h4>
            <div className="max-h-96 overflow-auto">
              <table
                className="w-full text-sm"
                aria-label={t('optichain:compare.flowsTitle')}
                data-testid="compare-flows"
              >
                <thead className="sticky top-0 bg-card">
                  <tr className="border-b border-border text-left text-muted-foreground">
                    <th className="py-1.5 font-medium">{t('optichain:compare.lane')}</th>
                    <th className="py-1.5 font-medium">{t('optichain:flows.family')}</th>
                    <th className="py-1.5 text-right font-medium">{t('optichain:compare.base')}</th>
                    <th className="py-1.5 text-right font-medium">{t('optichain:compare.scenario')}</th>
                    <th className="py-1.5 text-right font-medium">{t('optichain:compare.delta')}</th>
                  </tr>
                </thead>
                <tbody className="tabular-nums">
                  {data.flowChanges.slice(0, SHOWN_CHANGES).map((flow) => (
                    <tr
                      key={`${flow.leg}|${flow.from}|${flow.to}|${flow.family}`}
                      className="border-b border-border last:border-0"
                    >
                      <td className="py-1.5">
                        {t('optichain:compare.laneName', { from: flow.from, to: flow.to })}
                      </td>
                      <td className="py-1.5">{flow.family}</td>
                      <td className="py-1.5 text-right">{format.number(flow.baseUnits)}</td>
                      <td className="py-1.5 text-right">{format.number(flow.scenarioUnits)}</td>
                      <td
                        className={cn(
                          'py-1.5 text-right',
                          flow.delta > 0 ? 'text-success' : 'text-destructive',
                        )}
                      >
                        {format.number(flow.delta)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-xs text-muted-foreground">
              {t('optichain:compare.flowCount', {
                shown: Math.min(SHOWN_CHANGES, data.flowChanges.length),
                total: data.flowChanges.length,
              })}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
