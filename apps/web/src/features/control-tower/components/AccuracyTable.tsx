import {
  nextSort,
  sortRows,
  type AccuracyLevel,
  type AccuracyRow,
  type ForecastMemberWeight,
  type SortState,
} from '@ps/domain';
import type { TFunction } from 'i18next';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';

type Column =
  'bu' | 'pf' | 'pid' | 'model' | 'accuracy' | 'wape' | 'mape' | 'bias' | 'mase' | 'errorValue' | 'pairs';

const COLUMNS: ReadonlyArray<{
  key: Column;
  labelKey: string;
  levels: readonly AccuracyLevel[];
  numeric: boolean;
}> = [
  {
    key: 'bu',
    labelKey: 'controlTower:accuracy.columns.bu',
    levels: ['businessUnit', 'family', 'product'],
    numeric: false,
  },
  { key: 'pf', labelKey: 'controlTower:accuracy.columns.pf', levels: ['family', 'product'], numeric: false },
  { key: 'pid', labelKey: 'controlTower:accuracy.columns.pid', levels: ['product'], numeric: false },
  { key: 'model', labelKey: 'controlTower:accuracy.columns.model', levels: ['product'], numeric: false },
  {
    key: 'accuracy',
    labelKey: 'controlTower:accuracy.overall',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
  {
    key: 'wape',
    labelKey: 'controlTower:accuracy.wape',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
  {
    key: 'mape',
    labelKey: 'controlTower:accuracy.mape',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
  {
    key: 'bias',
    labelKey: 'controlTower:accuracy.bias',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
  {
    key: 'mase',
    labelKey: 'controlTower:accuracy.mase',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
  {
    key: 'errorValue',
    labelKey: 'controlTower:accuracy.columns.errorValue',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
  {
    key: 'pairs',
    labelKey: 'controlTower:accuracy.columns.pairs',
    levels: ['businessUnit', 'family', 'product'],
    numeric: true,
  },
];

function valueOf(row: AccuracyRow, column: Column): string | number | null {
  if (column === 'bu' || column === 'pf' || column === 'pid' || column === 'model') return row[column];
  if (column === 'errorValue') return row.errorValue;
  return row.metrics[column];
}

/** How many members the model cell shows; its tooltip lists them all. */
const MEMBERS_SHOWN = 3;

/** "ets-log 156 wk 48 %": a member of the product's ensemble, its history window and weight. */
function memberLabel(member: ForecastMemberWeight, t: TFunction, percent: (value: number) => string): string {
  const window =
    member.window === null
      ? t('controlTower:accuracy.memberAllHistory')
      : t('controlTower:accuracy.memberWindow', { weeks: member.window });
  return `${member.model} ${window} ${percent(member.weight * 100)}`;
}

/** Accuracy by business unit, family or product (spec §4 column sort, nulls last). */
export function AccuracyTable({ rows, level }: { rows: readonly AccuracyRow[]; level: AccuracyLevel }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [sort, setSort] = useState<SortState<Column>>(null);
  const columns = COLUMNS.filter((c) => c.levels.includes(level));
  const sorted = useMemo(() => sortRows(rows, sort, valueOf), [rows, sort]);
  const show = (row: AccuracyRow, column: Column): string => {
    const value = valueOf(row, column);
    if (value === null) return '-';
    if (typeof value === 'string') return value;
    if (column === 'mase') return format.number(value, 3);
    if (column === 'pairs') return format.number(value);
    if (column === 'errorValue') return format.currency(value, 0);
    return format.percent(value);
  };
  /** The model cell of a product: its heaviest members with their weights, all of them in the tooltip. */
  const members = (row: AccuracyRow) => {
    if (!row.members?.length) return null;
    const labels = row.members.map((m) => memberLabel(m, t, (v) => format.percent(v)));
    return {
      shown: labels.slice(0, MEMBERS_SHOWN).map((label) => (
        <span key={label} className="block whitespace-nowrap">
          {label}
        </span>
      )),
      title: t('controlTower:accuracy.membersTitle', { members: labels.join(', ') }),
    };
  };
  return (
    <div className="max-h-[560px] overflow-auto rounded-md border border-border">
      <table className="w-full border-collapse text-sm">
        <thead className="sticky top-0 z-10 bg-muted">
          <tr className="h-10">
            {columns.map((c) => {
              const Icon =
                sort?.column !== c.key
                  ? ArrowUpDownIcon
                  : sort.direction === 'asc'
                    ? ArrowUpIcon
                    : ArrowDownIcon;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={cn('px-3 font-medium', c.numeric ? 'text-right' : 'text-left')}
                  aria-sort={
                    sort?.column === c.key
                      ? sort.direction === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    onClick={() => setSort((s) => nextSort(s, c.key))}
                  >
                    {t(c.labelKey)}
                    <Icon className="size-3.5 text-muted-foreground" aria-hidden />
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={`${row.bu}|${row.pf ?? ''}|${row.pid ?? ''}`} className="h-8 border-t border-border">
              {columns.map((c) => {
                const ensemble = c.key === 'model' ? members(row) : null;
                return (
                  <td
                    key={c.key}
                    className={cn(
                      'px-3',
                      c.numeric ? 'text-right tabular-nums' : 'text-left',
                      c.key === 'model' && 'py-1 text-xs leading-snug text-muted-foreground',
                    )}
                    title={c.key === 'model' ? (ensemble?.title ?? row.model ?? undefined) : undefined}
                  >
                    {ensemble?.shown ?? show(row, c.key)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
