import {
  CYCLE_FREQUENCIES,
  type CycleFrequency,
  type CycleOverview,
  type CycleRun,
  type CycleSchedule,
  zonedDateTime,
} from '@ps/domain';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { PageHeading } from '@/components/PageHeading';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { useCycleActions, useCycleOverview } from './cycle-api';
import {
  COUNT_LABEL,
  FREQUENCY_LABEL,
  labelOf,
  RUN_STATUS_LABEL,
  STEP_LABEL,
  STEP_STATUS_LABEL,
  WEEKDAY_LABEL,
} from './cycle-labels';

const INPUT = 'h-9 rounded-md border border-input bg-background px-3 text-sm';
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
/** The zones the browser knows, offered as the admin types (the server checks the name). */
const TIME_ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

function ScheduleForm({ overview }: { overview: CycleOverview }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { saveSchedule } = useCycleActions();
  const [draft, setDraft] = useState<CycleSchedule>(overview.schedule);
  // Said on the company's clock, the one the schedule is set in.
  const nextRun = overview.nextRunAt
    ? zonedDateTime(new Date(overview.nextRunAt), overview.schedule.timeZone)
    : undefined;
  const set =
    <K extends keyof CycleSchedule>(key: K) =>
    (value: CycleSchedule[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The server checks the values and names what is wrong; nothing to duplicate here.
    saveSchedule.mutate(draft, {
      onSuccess: () => toast({ title: t('cycle:schedule.saved') }),
      onError: (error) =>
        toast({ variant: 'destructive', title: t('cycle:schedule.notSaved'), description: errorText(error) }),
    });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label={t('cycle:schedule.title')}>
      <div className="flex items-center gap-3">
        <Switch id="cycle-enabled" checked={draft.isEnabled} onCheckedChange={set('isEnabled')} />
        <Label htmlFor="cycle-enabled">{t('cycle:schedule.enabled')}</Label>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor="cycle-frequency">{t('cycle:schedule.frequency')}</Label>
          <select
            id="cycle-frequency"
            className={INPUT}
            value={draft.frequency}
            onChange={(event) => set('frequency')(event.target.value as CycleFrequency)}
          >
            {CYCLE_FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {t(labelOf(FREQUENCY_LABEL, frequency))}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="cycle-weekday">{t('cycle:schedule.weekday')}</Label>
          <select
            id="cycle-weekday"
            className={INPUT}
            value={draft.weekday}
            disabled={draft.frequency !== 'weekly'}
            onChange={(event) => set('weekday')(Number(event.target.value))}
          >
            {WEEKDAYS.map((day) => (
              <option key={day} value={day}>
                {t(labelOf(WEEKDAY_LABEL, day))}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="cycle-time">{t('cycle:schedule.time')}</Label>
          <input
            id="cycle-time"
            type="time"
            required
            className={INPUT}
            value={draft.time}
            onChange={(event) => set('time')(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="cycle-time-zone">{t('cycle:schedule.timeZone')}</Label>
          <input
            id="cycle-time-zone"
            list="cycle-time-zones"
            required
            className={`${INPUT} w-64`}
            value={draft.timeZone}
            onChange={(event) => set('timeZone')(event.target.value)}
          />
          <datalist id="cycle-time-zones">
            {TIME_ZONES.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
        <Button type="submit" disabled={saveSchedule.isPending}>
          {t('cycle:schedule.save')}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground" data-testid="cycle-next-run">
        {nextRun
          ? t('cycle:schedule.nextRun', {
              when: `${format.date(nextRun.date)} ${nextRun.time}`,
              zone: overview.schedule.timeZone,
            })
          : t('cycle:schedule.off')}
        {overview.updatedBy && overview.updatedAt
          ? ` ${t('cycle:schedule.savedBy', { by: overview.updatedBy, when: format.dateTime(overview.updatedAt) })}`
          : ''}
      </p>
    </form>
  );
}

function RunLog({ run }: { run: CycleRun }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { rerun } = useCycleActions();
  const rerunFrom = run.rerunFrom;
  return (
    <section className="flex flex-col gap-2" aria-label={t('cycle:run.label', { id: run.id })}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">
          {t('cycle:run.heading', {
            id: run.id,
            status: t(labelOf(RUN_STATUS_LABEL, run.status)),
            when: format.dateTime(run.startedAt),
            by: run.requestedBy,
          })}
        </h3>
        {rerunFrom && (
          <Button
            variant="outline"
            size="sm"
            disabled={rerun.isPending}
            onClick={() =>
              rerun.mutate(run.id, {
                onError: (error) =>
                  toast({
                    variant: 'destructive',
                    title: t('cycle:run.notStarted'),
                    description: errorText(error),
                  }),
              })
            }
          >
            {t('cycle:run.rerun', { step: t(labelOf(STEP_LABEL, rerunFrom)) })}
          </Button>
        )}
      </div>
      {run.error && <p className="text-sm text-destructive">{run.error}</p>}
      <table className="w-full text-sm" aria-label={t('cycle:log.label', { id: run.id })}>
        <thead className="text-left text-muted-foreground">
          <tr className="border-b border-border">
            <th className="py-2 pr-4 font-medium">{t('cycle:log.step')}</th>
            <th className="py-2 pr-4 font-medium">{t('cycle:log.status')}</th>
            <th className="py-2 pr-4 font-medium">{t('cycle:log.started')}</th>
            <th className="py-2 pr-4 font-medium">{t('cycle:log.finished')}</th>
            <th className="py-2 pr-4 font-medium">{t('cycle:log.counts')}</th>
            <th className="py-2 pr-4 font-medium">{t('cycle:log.message')}</th>
          </tr>
        </thead>
        <tbody>
          {run.steps.map((step, index) => (
            <tr key={index} className="border-b border-border last:border-b-0">
              <td className="py-2 pr-4 font-medium whitespace-nowrap">{t(labelOf(STEP_LABEL, step.step))}</td>
              <td className="py-2 pr-4 whitespace-nowrap">
                {step.status === 'running' && step.progress !== null
                  ? t('cycle:log.runningProgress', { percent: step.progress })
                  : t(labelOf(STEP_STATUS_LABEL, step.status))}
              </td>
              <td className="py-2 pr-4 whitespace-nowrap">{format.dateTime(step.startedAt)}</td>
              <td className="py-2 pr-4 whitespace-nowrap">
                {step.finishedAt ? format.dateTime(step.finishedAt) : ''}
              </td>
              <td className="py-2 pr-4 tabular-nums">
                {Object.entries(step.counts)
                  .map(([name, value]) =>
                    t('cycle:log.count', {
                      name: COUNT_LABEL[name] ? t(COUNT_LABEL[name]) : name,
                      value: format.number(value),
                    }),
                  )
                  .join(', ')}
              </td>
              <td className="py-2">{step.message ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The planning cycle (admins): its schedule, Run now, the actuals feed and each run's step log. */
export default function CyclePage() {
  const { t } = useTranslation();
  const overview = useCycleOverview();
  const { runNow } = useCycleActions();
  const data = overview.data;
  const isRunning = data?.runs.some((run) => run.status === 'running') ?? false;

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={t('cycle:title')}
        subtitle={t('cycle:subtitle')}
        actions={
          <Button
            disabled={!data || isRunning || runNow.isPending}
            onClick={() =>
              runNow.mutate(undefined, {
                onError: (error) =>
                  toast({
                    variant: 'destructive',
                    title: t('cycle:run.notStarted'),
                    description: errorText(error),
                  }),
              })
            }
          >
            {t('cycle:runNow')}
          </Button>
        }
      />
      {!data ? (
        <p className="text-sm text-muted-foreground">
          {overview.error ? errorText(overview.error) : t('common:loading')}
        </p>
      ) : (
        <>
          <Card>
            <CardHeader>
              <CardTitle>{t('cycle:schedule.title')}</CardTitle>
            </CardHeader>
            <CardContent>
              <ScheduleForm overview={data} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('cycle:feed.title')}</CardTitle>
            </CardHeader>
            <CardContent className="text-sm">
              {!data.feed.isConfigured
                ? t('cycle:feed.notConfigured')
                : data.feed.waitingFiles.length === 0
                  ? t('cycle:feed.empty')
                  : t('cycle:feed.waiting', { files: data.feed.waitingFiles.join(', ') })}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('cycle:runs.title')}</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-6">
              {data.runs.length === 0 ? (
                <p className="text-sm text-muted-foreground">{t('cycle:runs.none')}</p>
              ) : (
                data.runs.map((run) => <RunLog key={run.id} run={run} />)
              )}
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
