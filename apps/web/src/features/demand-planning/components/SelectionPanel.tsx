import type { AggregatedRow, DemandRecord, GridRow } from '@ps/domain';
import { Card } from '@/components/ui/card';
import { useFormatters, type Formatters } from '@/features/settings/useFormatters';

type Line = { label: string; value: string; isStrong?: boolean };

function isAggregated(row: GridRow): row is AggregatedRow {
  return 'recordCount' in row;
}

function recordLines(record: DemandRecord, fmt: Formatters): Line[] {
  const units = (value: number | null) =>
    value === null ? '—' : fmt.number(value, Number.isInteger(value) ? 0 : 2);
  const override = (percent: number | null, unitsValue: number | null) =>
    unitsValue !== null ? `${units(unitsValue)} units` : percent !== null ? fmt.percent(percent) : 'none';
  return [
    { label: 'Baseline (ensemble forecast)', value: units(record.Ensemble_Fcst_Units) },
    { label: 'Rev plan override', value: override(record.Rev_Pln_Ovrd_Percent, record.Rev_Pln_Ovrd_Units) },
    {
      label: 'Prelim plan',
      value: `${units(record.Prelim_Pln_Units)} · ${fmt.money(record.Prelim_Pln_Rev_Dlrs)}`,
    },
    { label: 'S&OP plan override', value: override(record.SOP_Pln_Ovrd_Percent, record.SOP_Pln_Ovrd_Units) },
    {
      label: 'Final plan',
      value: `${units(record.Final_Pln_Units)} · ${fmt.money(record.Final_Pln_Rev_Dlrs)}`,
      isStrong: true,
    },
    {
      label: 'P1 / P2 published units',
      value: `${units(record.P1_Pub_Pln_Units)} / ${units(record.P2_Pub_Pln_Units)}`,
    },
    { label: 'Reason', value: record.Reason_Code ?? '—' },
    {
      label: 'Last updated',
      value: record.last_updated_at
        ? `${fmt.dateTime(record.last_updated_at)}${record.last_updated_by ? ` by ${record.last_updated_by}` : ''}`
        : '—',
    },
  ];
}

function groupLines(row: AggregatedRow, fmt: Formatters): Line[] {
  return [
    { label: 'Records', value: fmt.number(row.recordCount) },
    { label: 'Actual revenue', value: fmt.money(row.Act_Rev_Dlrs) || '—' },
    { label: 'Prelim plan revenue', value: fmt.money(row.Prelim_Pln_Rev_Dlrs) || '—' },
    { label: 'Final plan revenue', value: fmt.money(row.Final_Pln_Rev_Dlrs) || '—', isStrong: true },
    { label: 'P1 published revenue', value: fmt.money(row.P1_Pub_Pln_Rev_Dlrs) || '—' },
    { label: 'P2 published revenue', value: fmt.money(row.P2_Pub_Pln_Rev_Dlrs) || '—' },
    { label: 'Reason codes', value: row.Reason_Codes.join(', ') || '—' },
  ];
}

function titleOf(row: GridRow, fmt: Formatters): string {
  if (!isAggregated(row)) return `${row.PID} · week of ${fmt.date(row.Date)}`;
  const keys = [row.BU, row.PF, row.PID, row.periodLabel].filter((key): key is string => Boolean(key));
  return keys.join(' · ') || 'All records';
}

/** The bottom panel (spec §2, hidden in focus view): the plan chain of the row picked in the grid. */
export function SelectionPanel({ row }: { row: GridRow | null }) {
  const fmt = useFormatters();
  return (
    <Card className="p-4" aria-label="Selected row">
      {row ? (
        <>
          <h2 className="mb-3 text-sm font-semibold">{titleOf(row, fmt)}</h2>
          <dl className="grid grid-cols-1 gap-x-8 gap-y-2 text-sm sm:grid-cols-2 xl:grid-cols-4">
            {(isAggregated(row) ? groupLines(row, fmt) : recordLines(row, fmt)).map((line) => (
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
        <p className="text-sm text-muted-foreground">
          Select a row in the grid to see how its plan is built.
        </p>
      )}
    </Card>
  );
}
