import { GRID_PERIODS, type GridPeriod, type GridPeriodChoice, type PlanClock } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useFormatters } from '@/lib/settings/useFormatters';
import { pickedPeriod, shownWeeks } from '../utils/period-choice';

const INPUT = 'h-8 rounded-md border border-input bg-background px-2 text-sm disabled:opacity-50';

type PeriodBarProps = {
  period: GridPeriodChoice;
  /** The server's week and horizon; null until it has answered. */
  clock: PlanClock | null;
  onPeriodChange: (period: GridPeriodChoice) => void;
  isDisabled: boolean;
};

const BUTTON_LABEL_KEYS = {
  horizon: 'planning:weeks.horizon',
  history: 'planning:weeks.history',
  all: 'planning:weeks.all',
} as const satisfies Record<GridPeriod, string>;

/**
 * The weeks the grid covers: the range as text, one click to the horizon, history or every
 * week, and two week pickers that take any day for its week.
 */
export function PeriodBar({ period, clock, onPeriodChange, isDisabled }: PeriodBarProps) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const weeks = shownWeeks(period, clock);
  const dateOf = (iso: string) => fmt.date(iso);
  const rangeText =
    weeks === null
      ? ''
      : weeks.from !== null && weeks.to !== null
        ? t('planning:weeks.range.both', { from: dateOf(weeks.from), to: dateOf(weeks.to) })
        : weeks.from !== null
          ? t('planning:weeks.range.from', { from: dateOf(weeks.from) })
          : weeks.to !== null
            ? t('planning:weeks.range.to', { to: dateOf(weeks.to) })
            : t('planning:weeks.range.all');
  const name =
    period === 'horizon'
      ? t('planning:weeks.named.horizon')
      : period === 'history'
        ? t('planning:weeks.named.history')
        : null;
  const pick = (side: 'from' | 'to', day: string) => {
    const next = pickedPeriod({ period, clock, side, day });
    if (next !== null) onPeriodChange(next);
  };

  return (
    <div className="flex flex-wrap items-end gap-3" data-testid="period-bar">
      <div className="flex min-w-56 flex-col gap-1">
        <span className="text-xs font-medium text-muted-foreground">{t('planning:weeks.label')}</span>
        <p className="text-sm" data-testid="period-text" aria-live="polite">
          {[name, rangeText].filter(Boolean).join(' · ')}
        </p>
      </div>
      <div className="flex gap-1" role="group" aria-label={t('planning:weeks.choices')}>
        {GRID_PERIODS.map((choice) => (
          <Button
            key={choice}
            type="button"
            size="sm"
            variant={period === choice ? 'default' : 'outline'}
            aria-pressed={period === choice}
            disabled={isDisabled}
            onClick={() => onPeriodChange(choice)}
          >
            {t(BUTTON_LABEL_KEYS[choice])}
          </Button>
        ))}
      </div>
      <label className="flex flex-col gap-1 text-xs font-medium text-muted-foreground">
        {t('planning:weeks.fromWeek')}
        <input
          type="date"
          className={INPUT}
          value={weeks?.from ?? ''}
          disabled={isDisabled}
          onChange={(event) => pick('from', event.target.value)}
        />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-muted-foreground">
        {t('planning:weeks.toWeek')}
        <input
          type="date"
          className={INPUT}
          value={weeks?.to ?? ''}
          disabled={isDisabled}
          onChange={(event) => pick('to', event.target.value)}
        />
      </label>
    </div>
  );
}
