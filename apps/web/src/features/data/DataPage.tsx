import { DATA_LOAD_ENTITIES, DATA_LOAD_LAYOUTS, type DataLoadEntity, type DataLoadJob } from '@ps/domain';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { PageHeading } from '@/components/PageHeading';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import {
  downloadConsensusPlan,
  downloadTemplate,
  runLoad,
  useLoadLog,
  usePlanVersions,
  useRefreshLoadLog,
} from './data-api';

const COUNTS = ['inserted', 'updated', 'unchanged', 'refused'] as const;
const COUNT_LABEL = {
  inserted: 'data:count.inserted',
  updated: 'data:count.updated',
  unchanged: 'data:count.unchanged',
  refused: 'data:count.refused',
} as const;
const ENTITY_LABEL: Record<DataLoadEntity, string> = {
  products: 'data:entity.products',
  'sales-history': 'data:entity.salesHistory',
  'lead-times': 'data:entity.leadTimes',
  'inventory-positions': 'data:entity.inventoryPositions',
  'open-orders': 'data:entity.openOrders',
};
const LAYOUT_TEXT: Record<DataLoadEntity, string> = {
  products: 'data:layout.products',
  'sales-history': 'data:layout.salesHistory',
  'lead-times': 'data:layout.leadTimes',
  'inventory-positions': 'data:layout.inventoryPositions',
  'open-orders': 'data:layout.openOrders',
};
const OUTCOME_LABEL = {
  running: 'data:outcome.running',
  succeeded: 'data:outcome.succeeded',
  dryRun: 'data:outcome.succeededDry',
  refused: 'data:outcome.refused',
  failed: 'data:outcome.failed',
} as const;
const outcomeOf = (job: DataLoadJob): string =>
  OUTCOME_LABEL[job.dryRun && job.status === 'succeeded' ? 'dryRun' : job.status];

function LoadResult({ job }: { job: DataLoadJob }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (job.status === 'running') {
    const percent = job.totalBytes > 0 ? Math.floor((100 * job.processedBytes) / job.totalBytes) : 0;
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {t('data:running', { rows: format.number(job.processedRows, 0), percent })}
      </p>
    );
  }
  return (
    <section aria-label={t('data:result')} className="flex flex-col gap-3">
      <p role="status" className="text-sm font-medium">
        {t(outcomeOf(job))}
      </p>
      {job.error && <p className="text-sm text-destructive">{job.error}</p>}
      {job.counts && (
        <dl className="flex flex-wrap gap-8 text-sm">
          {COUNTS.map((count) => (
            <div key={count}>
              <dt className="text-muted-foreground">{t(COUNT_LABEL[count])}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-count={count}>
                {format.number(job.counts![count], 0)}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {job.refusals.length > 0 && (
        <table className="w-full text-sm" aria-label={t('data:refusals')}>
          <thead className="text-left text-muted-foreground">
            <tr className="border-b border-border">
              <th className="py-1 font-medium">{t('data:column.row')}</th>
              <th className="py-1 font-medium">{t('data:column.field')}</th>
              <th className="py-1 font-medium">{t('data:column.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {job.refusals.map((refusal, index) => (
              <tr key={index} className="border-b border-border last:border-b-0">
                <td className="py-1 tabular-nums">{refusal.row}</td>
                <td className="py-1">{refusal.field}</td>
                <td className="py-1">{refusal.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function LoadForm() {
  const { t } = useTranslation();
  const refreshLog = useRefreshLoadLog();
  const [entity, setEntity] = useState<DataLoadEntity>('products');
  const [file, setFile] = useState<File | null>(null);
  const [job, setJob] = useState<DataLoadJob | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setJob(null);
    try {
      await runLoad(entity, file, dryRun, setJob);
    } catch (error) {
      toast({ variant: 'destructive', title: t('data:notLoaded'), description: errorText(error) });
    } finally {
      setBusy(false);
      void refreshLog();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void start(false);
  };
  const template = (format: 'csv' | 'xlsx') =>
    downloadTemplate(entity, format).catch((error: unknown) =>
      toast({ variant: 'destructive', title: t('data:notLoaded'), description: errorText(error) }),
    );

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-4" aria-label={t('data:form.title')}>
        <div className="flex flex-col gap-2">
          <Label htmlFor="data-entity">{t('data:form.entity')}</Label>
          <Select
            value={entity}
            onValueChange={(value) => {
              setEntity(value as DataLoadEntity);
              setJob(null);
            }}
          >
            <SelectTrigger id="data-entity" className="w-48">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {DATA_LOAD_ENTITIES.map((name) => (
                <SelectItem key={name} value={name}>
                  {t(ENTITY_LABEL[name])}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="data-file">{t('data:form.file')}</Label>
          <input
            id="data-file"
            type="file"
            accept=".csv,.xlsx"
            className="text-sm"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setJob(null);
            }}
          />
        </div>
        <Button type="button" variant="outline" disabled={!file || busy} onClick={() => void start(true)}>
          {t('data:form.dryRun')}
        </Button>
        <Button type="submit" disabled={!file || busy}>
          {t('data:form.load')}
        </Button>
      </form>
      <p className="text-sm text-muted-foreground">{t(LAYOUT_TEXT[entity])}</p>
      <p className="text-sm text-muted-foreground">
        {t('data:form.columns', { columns: DATA_LOAD_LAYOUTS[entity].columns.map((c) => c.header).join(', ') })}
      </p>
      <div className="flex gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={() => void template('csv')}>
          {t('data:form.templateCsv')}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={() => void template('xlsx')}>
          {t('data:form.templateXlsx')}
        </Button>
      </div>
      {job && <LoadResult job={job} />}
    </div>
  );
}

function LoadLog() {
  const { t } = useTranslation();
  const format = useFormatters();
  const log = useLoadLog();
  if (!log.data) return <p className="text-sm text-muted-foreground">{t('common:loading')}</p>;
  if (log.data.length === 0) return <p className="text-sm text-muted-foreground">{t('data:log.empty')}</p>;
  return (
    <table className="w-full text-sm" aria-label={t('data:log.title')}>
      <thead className="text-left text-muted-foreground">
        <tr className="border-b border-border">
          <th className="py-2 font-medium">{t('data:log.when')}</th>
          <th className="py-2 font-medium">{t('data:log.who')}</th>
          <th className="py-2 font-medium">{t('data:log.file')}</th>
          <th className="py-2 font-medium">{t('data:log.entity')}</th>
          {COUNTS.map((count) => (
            <th key={count} className="py-2 text-right font-medium">
              {t(COUNT_LABEL[count])}
            </th>
          ))}
          <th className="py-2 text-right font-medium">{t('data:log.duration')}</th>
          <th className="py-2 pl-4 font-medium">{t('data:log.outcome')}</th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((load) => (
          <tr key={load.id} className="border-b border-border last:border-b-0">
            <td className="py-2">{format.dateTime(load.startedAt)}</td>
            <td className="py-2">{load.loadedBy}</td>
            <td className="py-2">{load.fileName}</td>
            <td className="py-2">{t(ENTITY_LABEL[load.entity])}</td>
            {COUNTS.map((count) => (
              <td key={count} className="py-2 text-right tabular-nums">
                {load.counts ? format.number(load.counts[count], 0) : ''}
              </td>
            ))}
            <td className="py-2 text-right tabular-nums">
              {load.durationMs === null ? '' : t('data:log.seconds', { seconds: format.number(load.durationMs / 1000, 1) })}
            </td>
            <td className="py-2 pl-4" title={load.error ?? undefined}>
              {t(outcomeOf(load))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Whole plan in the "changes since" choice. */
const WHOLE_PLAN = 'whole';

/**
 * The plan sent out: the consensus plan of the latest published versions, whole or the changes
 * since a version, as CSV or Excel (docs/data-integration.md "The plan, sent out").
 */
function ConsensusPlan() {
  const { t } = useTranslation();
  const format = useFormatters();
  const versions = usePlanVersions();
  const [since, setSince] = useState(WHOLE_PLAN);
  const [busy, setBusy] = useState(false);
  const download = async (fileFormat: 'csv' | 'xlsx') => {
    setBusy(true);
    try {
      await downloadConsensusPlan(fileFormat, since === WHOLE_PLAN ? null : Number(since));
    } catch (error) {
      toast({ variant: 'destructive', title: t('data:plan.notDownloaded'), description: errorText(error) });
    } finally {
      setBusy(false);
    }
  };
  const latest = versions.data?.[0];
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">{t('data:plan.description')}</p>
      <p className="text-sm" data-testid="consensus-plan-latest">
        {latest
          ? t('data:plan.latest', {
              label: latest.label,
              version: latest.id,
              when: format.dateTime(latest.publishedAt),
            })
          : t('data:plan.none')}
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor="plan-since">{t('data:plan.since')}</Label>
          <Select value={since} onValueChange={setSince}>
            <SelectTrigger id="plan-since" className="w-96">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={WHOLE_PLAN}>{t('data:plan.whole')}</SelectItem>
              {(versions.data ?? []).map((version) => (
                <SelectItem key={version.id} value={String(version.id)}>
                  {t('data:plan.version', {
                    version: version.id,
                    label: version.label,
                    client: version.clientId,
                    when: format.dateTime(version.publishedAt),
                  })}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button type="button" variant="outline" disabled={busy} onClick={() => void download('csv')}>
          {t('data:plan.csv')}
        </Button>
        <Button type="button" variant="outline" disabled={busy} onClick={() => void download('xlsx')}>
          {t('data:plan.xlsx')}
        </Button>
      </div>
    </div>
  );
}

/** Data (admin): bulk loads of a company's own products and sales history, the load log, and the plan sent out. */
export default function DataPage() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading title={t('data:title')} subtitle={t('data:subtitle')} />
      <Card>
        <CardHeader>
          <CardTitle>{t('data:form.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <LoadForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('data:plan.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ConsensusPlan />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('data:log.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <LoadLog />
        </CardContent>
      </Card>
    </div>
  );
}
