import {
  nextSort,
  quarterSelectionLabel,
  sortRows,
  toggleQuarter,
  trackerRows,
  type SortState,
  type TrackerCell,
  type TrackerRow,
} from '@ps/domain';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, ChevronDownIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/cn';
import { useFormatters } from '@/lib/settings/useFormatters';
import { deltaTone } from './money';

type Column = keyof TrackerRow;
const TEXT_COLUMNS = [
  { key: 'bu', labelKey: 'controlTower:tracker.bu' },
  { key: 'pud', labelKey: 'controlTower:tracker.pud' },
  { key: 'pf', labelKey: 'controlTower:tracker.pf' },
] as const;
const GROUPS = [
  {
    labelKey: 'controlTower:tracker.stdCostAspGroup',
    columns: [
      { key: 'deltaP0ToP1UnitCost', labelKey: 'controlTower:tracker.p0p1Cost' },
      { key: 'deltaP0ToP1UnitPrice', labelKey: 'controlTower:tracker.p0p1Asp' },
    ],
  },
  {
    labelKey: 'controlTower:tracker.dpGroup',
    columns: [
      { key: 'deltaP0P1DemandPlanCost', labelKey: 'controlTower:tracker.dpCost' },
      { key: 'deltaP0P1DemandPlanRev', labelKey: 'controlTower:tracker.dpRev' },
    ],
  },
  {
    labelKey: 'controlTower:tracker.mktgGroup',
    columns: [
      { key: 'deltaMarketingPlanCost', labelKey: 'controlTower:tracker.mktgCost' },
      { key: 'deltaMarketingPlanRev', labelKey: 'controlTower:tracker.mktgRev' },
    ],
  },
] as const;

function SortButton({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: Column;
  sort: SortState<Column>;
  onSort: (c: Column) => void;
}) {
  const Icon =
    sort?.column !== column ? ArrowUpDownIcon : sort.direction === 'asc' ? ArrowUpIcon : ArrowDownIcon;
  return (
    <button
      type="button"
      onClick={() => onSort(column)}
      className="inline-flex items-center gap-1 rounded-sm font-medium outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      aria-sort={
        sort?.column === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined
      }
    >
      {label}
      <Icon className="size-3.5 text-muted-foreground" aria-hidden />
    </button>
  );
}

/**
 * 'Demand Plan - Marketing Plan Revenue and Cost Delta Tracker' (spec §2): one row per BU, PUD
 * (region) and PF, summed over the quarters chosen in the Fiscal Quarter multi-select (which,
 * unlike the spec's sample, filters the rows, as a planner expects); every column sorts (spec §4).
 */
export function DeltaTracker({ cells }: { cells: readonly TrackerCell[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const quarters = useMemo(() => [...new Set(cells.map((c) => c.quarter))].sort(), [cells]);
  const [selected, setSelected] = useState<string[] | null>(null);
  const [draft, setDraft] = useState<string[] | null>(null);
  const [open, setOpen] = useState(false);
  const [sort, setSort] = useState<SortState<Column>>(null);
  const rows = useMemo(
    () => sortRows(trackerRows(cells, selected), sort, (row, column) => row[column]),
    [cells, selected, sort],
  );
  const label = (() => {
    const l = quarterSelectionLabel(selected);
    if (l.kind === 'all') return t('controlTower:tracker.selectAll');
    if (l.kind === 'none') return t('controlTower:tracker.selectQuarters');
    if (l.kind === 'one') return l.quarter;
    return t('controlTower:tracker.quartersSelected', { count: l.count });
  })();
  const onSort = (column: Column) => setSort((s) => nextSort(s, column));
  const isChecked = (q: string) => (q === 'all' ? draft === null : draft === null || draft.includes(q));

  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      aria-labelledby="tracker-heading"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="tracker-heading" className="text-base font-semibold">
          {t('controlTower:tracker.title')}
        </h2>
        <div className="flex items-center gap-2 text-sm">
          <span id="tracker-quarter-label">{t('controlTower:tracker.fiscalQuarter')}</span>
          <Popover
            open={open}
            onOpenChange={(next) => {
              if (next) setDraft(selected);
              setOpen(next);
            }}
          >
            <PopoverTrigger asChild>
              <Button
                variant="outline"
                size="sm"
                aria-labelledby="tracker-quarter-label tracker-quarter-value"
                className="min-w-44 justify-between"
              >
                <span id="tracker-quarter-value">{label}</span>
                <ChevronDownIcon className="size-4" aria-hidden />
              </Button>
            </PopoverTrigger>
            <PopoverContent align="end" className="w-56 p-2">
              <ul className="max-h-72 overflow-auto">
                {(['all', ...quarters] as const).map((q) => (
                  <li key={q}>
                    <label className="flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1 text-sm hover:bg-accent">
                      <input
                        type="checkbox"
                        checked={isChecked(q)}
                        onChange={() => setDraft((d) => toggleQuarter(d, q, quarters))}
                      />
                      {q === 'all' ? t('controlTower:tracker.selectAll') : q}
                    </label>
                  </li>
                ))}
              </ul>
              <div className="mt-2 flex justify-end gap-2 border-t border-border pt-2">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    setSelected(null);
                    setOpen(false);
                  }}
                >
                  {t('common:cancel')}
                </Button>
                <Button
                  size="sm"
                  onClick={() => {
                    setSelected(draft);
                    setOpen(false);
                  }}
                >
                  {t('common:ok')}
                </Button>
              </div>
            </PopoverContent>
          </Popover>
        </div>
      </div>
      <div className="max-h-[480px] overflow-auto rounded-md border border-border">
        <table className="w-full border-collapse text-sm">
          <thead className="sticky top-0 z-10 bg-muted">
            <tr className="h-8">
              <th colSpan={3} />
              {GROUPS.map((g) => (
                <th
                  key={g.labelKey}
                  colSpan={2}
                  scope="colgroup"
                  className="border-l border-border px-3 text-center font-medium"
                >
                  {t(g.labelKey)}
                </th>
              ))}
            </tr>
            <tr className="h-10">
              {TEXT_COLUMNS.map((c) => (
                <th key={c.key} scope="col" className="px-3 text-left">
                  <SortButton label={t(c.labelKey)} column={c.key} sort={sort} onSort={onSort} />
                </th>
              ))}
              {GROUPS.flatMap((g) =>
                g.columns.map((c, i) => (
                  <th
                    key={c.key}
                    scope="col"
                    className={cn('px-3 text-right', i === 0 && 'border-l border-border')}
                  >
                    <SortButton label={t(c.labelKey)} column={c.key} sort={sort} onSort={onSort} />
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.bu}|${row.pud}|${row.pf}`} className="h-8 border-t border-border">
                <td className="px-3">{row.bu}</td>
                <td className="px-3">{row.pud}</td>
                <td className="px-3">{row.pf}</td>
                {GROUPS.flatMap((g) =>
                  g.columns.map((c, i) => (
                    <td
                      key={c.key}
                      className={cn(
                        'px-3 text-right tabular-nums',
                        deltaTone(row[c.key]),
                        i === 0 && 'border-l border-border',
                      )}
                    >
                      {format.tracker(row[c.key])}
                    </td>
                  )),
                )}
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={9} className="px-3 py-6 text-center text-muted-foreground">
                  {t('controlTower:tracker.noQuarters')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
