import type { AggregatedRow, DemandRecord, GridRow } from '@ps/domain';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import { useFormatters, type Formatters } from '@/lib/settings/useFormatters';

type Line = { label: string; value: string; isStrong?: boolean };

function isAggregated(row: GridRow): row is AggregatedRow {
  return 'recordCount' in row;
}

function recordLines(record: DemandRecord, fmt: Formatters, t: TFunction): Line[] {
  const units = (value: number | null) =>
    value === null ? '—' : fmt.number(value, Number.isInteger(value) ? 0 : 2);
  const override = (percent: number | null, unitsValue: number | null) =>
    unitsValue !== null
      ? t('planning:selection.units', { units: units(unitsValue) })
      : percent !== null
        ? fmt.percent(percent)
        : t('planning:selection.none');
  return [
    { label: t('planning:selection.baseline'), value: units(record.Ensemble_Fcst_Units) },
    {
      label: t('planning:selection.revOverride'),
      value: override(record.Rev_Pln_Ovrd_Percent, record.Rev_Pln_Ovrd_Units),
    },
    {
      label: t('planning:selection.prelim'),
      value: `${units(record.Prelim_Pln_Units)} · ${fmt.money(record.Prelim_Pln_Rev_Dlrs)}`,
    },
    {
      label: t('planning:selection.sopOverride'),
      value: override(record.SOP_Pln_Ovrd_Percent, record.SOP_Pln_Ovrd_Units),
    },
    {
      label: t('planning:selection.final'),
      value: `${units(record.Final_Pln_Units)} · ${fmt.money(record.Final_Pln_Rev_Dlrs)}`,
      isStrong: true,
    },
    {
      label: t('planning:selection.published'),
      value: `${units(record.P1_Pub_Pln_Units)} / ${units(record.P2_Pub_Pln_Units)}`,
    },
    { label: t('planning:selection.reason'), value: record.Reason_Code ?? '—' },
    {
      label: t('planning:selection.lastUpdated'),
      value: record.last_updated_at
        ? record.last_updated_by
          ? t('planning:selection.updatedBy', {
              time: fmt.dateTime(record.last_updated_at),
              user: record.last_updated_by,
            })
          : fmt.dateTime(record.last_updated_at)
        : '—',
    },
  ];
}

function groupLines(row: AggregatedRow, fmt: Formatters, t: TFunction): Line[] {
  return [
    { label: t('planning:selection.records'), value: fmt.number(row.recordCount) },
    { label: t('planning:selection.actualRevenue'), value: fmt.money(row.Act_Rev_Dlrs) || '—' },
    { label: t('planning:selection.prelimRevenue'), value: fmt.money(row.Prelim_Pln_Rev_Dlrs) || '—' },
    {
      label: t('planning:selection.finalRevenue'),
      value: fmt.money(row.Final_Pln_Rev_Dlrs) || '—',
      isStrong: true,
    },
    { label: t('planning:selection.p1Revenue'), value: fmt.money(row.P1_Pub_Pln_Rev_Dlrs) || '—' },
    { label: t('planning:selection.p2Revenue'), value: fmt.money(row.P2_Pub_Pln_Rev_Dlrs) || '—' },
    { label: t('planning:selection.reasonCodes'), value: row.Reason_Codes.join(', ') || '—' },
    { label: t('planning:selection.comments'), value: fmt.number(row.commentCount) },
  ];
}

function titleOf(row: GridRow, fmt: Formatters, t: TFunction): string {
  if (!isAggregated(row)) return t('planning:selection.weekOf', { pid: row.PID, date: fmt.date(row.Date) });
  const keys = [row.BU, row.PF, row.PID, row.periodLabel].filter((key): key is string => Boolean(key));
  return keys.join(' · ') || t('planning:selection.allRecords');
}

/** The bottom panel (spec §2, hidden in focus view): the plan chain of the row picked in the grid. */
export function SelectionPanel({ row }: { row: GridRow | null }) {
  const fmt = useFormatters();
  const { t } = useTranslation();
  return (
    <Card className="p-4" aria-label={t('planning:selection.label')} data-testid="selection-panel">
      {row ? (
        <>
          <h2 className="mb-3 text-sm font-semibold">{titleOf(row, fmt, t)}</h2>
          <dl className="grid grid-cols-1 gap-x-8 gap-y-2 text-sm sm:grid-cols-2 xl:grid-cols-4">
            {(isAggregated(row) ? groupLines(row, fmt, t) : recordLines(row, fmt, t)).map((line) => (
              <div key={line.label} className="flex flex-col">
                <dt className="text-xs text-muted-foreground">{line.label}</dt>
                <dd className={line.isStrong ? 'font-semibold tabular-nums' : 'tabular-nums'}>
                  {line.value}
                </dd>
              </div>
            ))}
          </dl>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{t('planning:selection.empty')}</p>
      )}
    </Card>
  );
}
