import type { FlowRow } from '@ps/domain';
import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LabelledSelect, plainOptions } from './LabelledSelect';
import { toast } from '@/components/ui/use-toast';
import { useCurrencyNote } from '@/components/CurrencyNote';
import { useFormatters } from '@/lib/settings/useFormatters';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { errorText } from '@/i18n/error-text';
import { exportFlowsToXlsx } from '../utils/export-flows';
import { filterFlows, flowTotals, NO_FILTERS, type FlowFilters } from '../utils/flow-filters';

/** Rows drawn at once; the export always holds every filtered row. */
const SHOWN_ROWS = 200;

/** Every flow of the solution with filters (leg, family, period, origin or destination) and an .xlsx export. */
export function FlowsTable({ flows, runId }: { flows: readonly FlowRow[]; runId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { numberFormat, currency } = useUserSettings().settings;
  const currencyNote = useCurrencyNote();
  const [filters, setFilters] = useState<FlowFilters>(NO_FILTERS);
  const families = useMemo(() => [...new Set(flows.map((f) => f.family))].sort(), [flows]);
  const periods = useMemo(() => [...new Set(flows.map((f) => f.period))].sort(), [flows]);
  const rows = useMemo(() => filterFlows(flows, filters), [flows, filters]);
  const totals = flowTotals(rows);
  const set = (patch: Partial<FlowFilters>) => setFilters((current) => ({ ...current, ...patch }));

  const exportRows = () => {
    exportFlowsToXlsx(
      rows,
      {
        sheet: t('optichain:flows.sheet'),
        leg: t('optichain:flows.leg'),
        from: t('optichain:flows.from'),
        to: t('optichain:flows.to'),
        family: t('optichain:flows.family'),
        period: t('optichain:flows.period'),
        units: t('optichain:flows.units'),
        cost: t('optichain:flows.cost'),
        leadTime: t('optichain:flows.leadTime'),
        inbound: t('optichain:flows.inbound'),
        outbound: t('optichain:flows.outbound'),
      },
      {
        // The rate the table's costs are shown with, and the note that says so.
        currency: { rate: format.rate, missing: format.missingRate ? currency : null },
        numberFormat,
        note: currencyNote?.text ?? null,
      },
      `optichain-flows-run-${runId}.xlsx`,
    ).then(
      () =>
        toast({
          title: t('optichain:flows.exported'),
          description: t('optichain:flows.exportedDetail', { total: rows.length }),
        }),
      (error: unknown) =>
        toast({
          title: t('optichain:flows.exportFailed'),
          description: errorText(error),
          variant: 'destructive',
        }),
    );
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <LabelledSelect
          label={t('optichain:flows.leg')}
          value={filters.leg}
          onChange={(leg) => set({ leg: leg as FlowFilters['leg'] })}
          options={[
            { value: 'all', label: t('optichain:flows.allLegs') },
            { value: 'inbound', label: t('optichain:flows.inbound') },
            { value: 'outbound', label: t('optichain:flows.outbound') },
          ]}
          triggerClass="w-40"
        />
        <LabelledSelect
          label={t('optichain:flows.family')}
          value={filters.family}
          onChange={(family) => set({ family })}
          options={plainOptions(families, t('optichain:flows.allFamilies'))}
          triggerClass="w-52"
        />
        <LabelledSelect
          label={t('optichain:flows.period')}
          value={filters.period}
          onChange={(period) => set({ period })}
          options={plainOptions(periods, t('optichain:flows.allPeriods'))}
          triggerClass="w-36"
        />
        <label className="flex flex-col gap-1 text-xs text-muted-foreground">
          {t('optichain:flows.search')}
          <input
            value={filters.search}
            onChange={(event) => set({ search: event.target.value })}
            placeholder={t('optichain:flows.searchPlaceholder')}
            className="h-9 w-52 rounded-md border border-input bg-background px-3 text-sm text-foreground"
          />
        </label>
        <Button variant="outline" className="ml-auto" onClick={exportRows} disabled={rows.length === 0}>
          <Download aria-hidden />
          {t('optichain:flows.export')}
        </Button>
      </div>
      <div className="max-h-[420px] overflow-auto rounded-md border border-border">
        <table className="w-full text-sm" aria-label={t('optichain:flows.title')} data-testid="flows-table">
          <thead className="sticky top-0 bg-card">
            <tr className="border-b border-border text-left text-muted-foreground">
              <th className="px-3 py-2 font-medium">{t('optichain:flows.leg')}</th>
              <th className="px-3 py-2 font-medium">{t('optichain:flows.from')}</th>
              <th className="px-3 py-2 font-medium">{t('optichain:flows.to')}</th>
              <th className="px-3 py-2 font-medium">{t('optichain:flows.family')}</th>
              <th className="px-3 py-2 font-medium">{t('optichain:flows.period')}</th>
              <th className="px-3 py-2 text-right font-medium">{t('optichain:flows.units')}</th>
              <th className="px-3 py-2 text-right font-medium">{t('optichain:flows.cost')}</th>
              <th className="px-3 py-2 text-right font-medium">{t('optichain:flows.leadTime')}</th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {rows.slice(0, SHOWN_ROWS).map((flow) => (
              <tr
                key={`${flow.leg}|${flow.from}|${flow.to}|${flow.family}|${flow.period}`}
                className="border-b border-border last:border-0"
              >
                <td className="px-3 py-1.5">
                  {flow.leg === 'inbound' ? t('optichain:flows.inbound') : t('optichain:flows.outbound')}
                </td>
                <td className="px-3 py-1.5">{flow.from}</td>
                <td className="px-3 py-1.5">{flow.to}</td>
                <td className="px-3 py-1.5">{flow.family}</td>
                <td className="px-3 py-1.5">{flow.period}</td>
                <td className="px-3 py-1.5 text-right">{format.number(flow.units)}</td>
                <td className="px-3 py-1.5 text-right">{format.currency(flow.cost, 0)}</td>
                <td className="px-3 py-1.5 text-right">{format.number(flow.leadTimeDays)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="sticky bottom-0 bg-card font-semibold tabular-nums">
            <tr className="border-t border-border">
              <td className="px-3 py-2" colSpan={5}>
                {rows.length > SHOWN_ROWS
                  ? t('optichain:flows.shownOf', { shown: SHOWN_ROWS, total: rows.length })
                  : t('optichain:flows.rows', { total: rows.length })}
              </td>
              <td className="px-3 py-2 text-right">{format.number(totals.units)}</td>
              <td className="px-3 py-2 text-right">{format.currency(totals.cost, 0)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
