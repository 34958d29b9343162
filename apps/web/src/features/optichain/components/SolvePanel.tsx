import type { DemandSource, Granularity, OptimisationRun, Scenario } from '@ps/domain';
import { Loader2, Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useFormatters } from '@/lib/settings/useFormatters';

export type SolveForm = {
  start: string;
  periods: number;
  granularity: Granularity;
  demandSource: DemandSource;
  /** 'baseline' or a scenario id. */
  scenario: string;
};

const PERIOD_CHOICES = [1, 2, 3, 4, 6, 9, 12, 18, 24];

type Props = {
  form: SolveForm;
  onChange: (form: SolveForm) => void;
  scenarios: readonly Scenario[];
  running: OptimisationRun | null;
  isStarting: boolean;
  onSolve: () => void;
};

/** What to solve (horizon, demand plan, baseline or scenario) and the Solve button with the running solve's progress. */
export function SolvePanel({ form, onChange, scenarios, running, isStarting, onSolve }: Props) {
  const { t } = useTranslation();
  const format = useFormatters();
  // HiGHS reports progress only from its MIP log; the clock ticks here so the wait is visible.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const elapsed = running
    ? Math.max(running.progress.seconds, Math.max(0, (now - Date.parse(running.startedAt)) / 1000))
    : 0;
  const set = (patch: Partial<SolveForm>) => onChange({ ...form, ...patch });
  const field = 'flex flex-col gap-1 text-xs text-muted-foreground';
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className={field}>
        {t('optichain:solve.start')}
        <input
          type="month"
          value={form.start}
          onChange={(event) => event.target.value && set({ start: event.target.value })}
          className="h-9 rounded-md border border-input bg-background px-3 text-sm text-foreground"
        />
      </label>
      <label className={field}>
        {t('optichain:solve.periods')}
        <Select value={String(form.periods)} onValueChange={(value) => set({ periods: Number(value) })}>
          <SelectTrigger className="w-24" aria-label={t('optichain:solve.periods')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PERIOD_CHOICES.map((n) => (
              <SelectItem key={n} value={String(n)}>
                {String(n)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </label>
      <label className={field}>
        {t('optichain:solve.granularity')}
        <Select
          value={form.granularity}
          onValueChange={(value) => set({ granularity: value as Granularity })}
        >
          <SelectTrigger className="w-32" aria-label={t('optichain:solve.granularity')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="month">{t('optichain:solve.month')}</SelectItem>
            <SelectItem value="quarter">{t('optichain:solve.quarter')}</SelectItem>
          </SelectContent>
        </Select>
      </label>
      <label className={field}>
        {t('optichain:solve.demand')}
        <Select
          value={form.demandSource}
          onValueChange={(value) => set({ demandSource: value as DemandSource })}
        >
          <SelectTrigger className="w-56" aria-label={t('optichain:solve.demand')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="final">{t('optichain:solve.final')}</SelectItem>
            <SelectItem value="p1">{t('optichain:solve.p1')}</SelectItem>
            <SelectItem value="p2">{t('optichain:solve.p2')}</SelectItem>
          </SelectContent>
        </Select>
      </label>
      <label className={field}>
        {t('optichain:solve.scenario')}
        <Select value={form.scenario} onValueChange={(scenario) => set({ scenario })}>
          <SelectTrigger
            className="w-60"
            aria-label={t('optichain:solve.scenario')}
            data-testid="solve-scenario"
          >
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="baseline">{t('optichain:solve.baseline')}</SelectItem>
            {scenarios.map((s) => (
              <SelectItem key={s.id} value={String(s.id)}>
                {s.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </label>
      <Button onClick={onSolve} disabled={isStarting || running !== null} data-testid="solve-button">
        {isStarting || running ? <Loader2 className="animate-spin" aria-hidden /> : <Play aria-hidden />}
        {t('optichain:solve.solve')}
      </Button>
      {running && (
        <span className="text-sm text-muted-foreground" aria-live="polite" data-testid="solve-progress">
          {running.progress.gapPercent === null
            ? t('optichain:solve.progress', { seconds: format.number(elapsed, 0) })
            : t('optichain:solve.progressGap', {
                seconds: format.number(elapsed, 0),
                gap: format.number(running.progress.gapPercent, 2),
              })}
        </span>
      )}
    </div>
  );
}
