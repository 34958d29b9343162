import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileSpreadsheetIcon, Loader2, UploadIcon, XIcon } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IMPORT_FORECAST_FIELDS,
  IMPORT_OVERRIDE_FIELDS,
  type ImportIssue,
  type ImportPlanRow,
  type ImportJob,
  type ImportOutcome,
  type ImportPreview,
} from '@ps/domain';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY } from '@/features/demand-planning';
import { FILTER_OPTIONS_KEY } from '@/features/demand-planning';
import { GRID_QUERY_PREFIX } from '@/features/demand-planning';
import { useFormatters } from '@/lib/settings/useFormatters';
import { AiHelpBubble } from '@/features/ai-assistant';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import { cn } from '@/lib/cn';
import { ACCEPTED_EXTENSIONS, previewImport, rejectionOf, runImport, type FileRejection } from './import-api';

type Step = 'upload' | 'preview' | 'importing';
/** Spec §4: upload (0) → preview (50) → importing (100). */
const PROGRESS: Record<Step, number> = { upload: 0, preview: 50, importing: 100 };
const QUARTER_FIELDS = [...IMPORT_FORECAST_FIELDS, ...IMPORT_OVERRIDE_FIELDS];

/** The import/export group's Import button and its dialog (spec §2, §4, §5). */
export function ImportControl() {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setIsOpen(true)}>
        <UploadIcon aria-hidden />
        {t('import:button')}
      </Button>
      <ImportDialog isOpen={isOpen} onClose={() => setIsOpen(false)} />
    </>
  );
}

function ImportDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [rejection, setRejection] = useState<FileRejection | null>(null);
  const [job, setJob] = useState<ImportJob | null>(null);

  const reset = () => {
    setStep('upload');
    setFile(null);
    setPreview(null);
    setRejection(null);
    setJob(null);
  };

  const parse = useMutation({
    mutationFn: (chosen: File) => previewImport(chosen),
    onSuccess: (result) => {
      setPreview(result);
      setStep('preview');
    },
    onError: (error) => {
      reset();
      toast({
        title: i18next.t('import:toast.error'),
        description: errorText(error),
        variant: 'destructive',
      });
    },
  });

  const apply = useMutation({
    mutationFn: (chosen: File) => runImport(chosen, setJob),
    onSuccess: (outcome: ImportOutcome) => {
      toast({
        title: i18next.t(outcome.failed > 0 ? 'import:toast.failed' : 'import:toast.success'),
        description:
          outcome.failed > 0
            ? outcome.message
            : i18next.t('import:toast.successDescription', { count: outcome.imported }),
        variant: outcome.failed > 0 ? 'destructive' : 'default',
      });
      // Spec §7: after an import the grid, roll-ups, dashboard and summary are read again.
      for (const queryKey of [
        GRID_QUERY_PREFIX,
        DASHBOARD_METRICS_KEY,
        SUMMARY_STATS_KEY,
        FILTER_OPTIONS_KEY,
      ])
        void queryClient.invalidateQueries({ queryKey });
      reset();
      onClose();
    },
    onError: (error) => {
      setStep('preview');
      setJob(null);
      toast({
        title: i18next.t('import:toast.failed'),
        description: errorText(error),
        variant: 'destructive',
      });
    },
  });

  const isWorking = parse.isPending || apply.isPending;

  const choose = (files: readonly File[]) => {
    const refused = rejectionOf(files);
    setRejection(refused);
    if (refused) return;
    setFile(files[0]!);
    parse.mutate(files[0]!);
  };

  const close = () => {
    if (isWorking) return;
    reset();
    onClose();
  };

  return (
    <Dialog open={isOpen} onOpenChange={(open) => !open && close()}>
      <DialogContent className="sm:max-w-4xl">
        <DialogHeader>
          <div className="flex items-center gap-2">
            <DialogTitle>{t('import:title')}</DialogTitle>
            <AiHelpBubble context="excel-import" />
          </div>
          <DialogDescription>{t('import:description')}</DialogDescription>
        </DialogHeader>
        <div
          role="progressbar"
          aria-label={t('import:progressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={PROGRESS[step]}
          className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-all" style={{ width: `${PROGRESS[step]}%` }} />
        </div>
        {step === 'upload' && <DropZone onFiles={choose} isParsing={parse.isPending} rejection={rejection} />}
        {step !== 'upload' && file && preview && (
          <PreviewPanel file={file} preview={preview} onRemove={reset} isWorking={isWorking} />
        )}
        {step === 'importing' && <ImportProgress job={job} />}
        <DialogFooter>
          <Button variant="outline" onClick={close} disabled={isWorking}>
            {t('common:cancel')}
          </Button>
          <Button
            onClick={() => {
              if (!file) return;
              setStep('importing');
              apply.mutate(file);
            }}
            disabled={step === 'upload' || !preview || preview.validRowCount === 0 || isWorking}
          >
            {apply.isPending && <Loader2 className="animate-spin" aria-hidden />}
            {t('import:import', { count: preview?.validRowCount ?? 0 })}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * How far the import got: the server applies a file in the background and counts the rows it has
 * written (spec §4 keeps the dialog's own bar at 100 in this state).
 */
function ImportProgress({ job }: { job: ImportJob | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const percent = job?.progressPercent ?? 0;
  return (
    <div className="space-y-1.5" data-testid="import-progress">
      <div
        role="progressbar"
        aria-label={t('import:applying')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {job
          ? t('import:applyingRows', {
              processed: format.number(job.processedRows),
              total: format.number(job.totalRows),
            })
          : t('import:uploading')}
      </p>
    </div>
  );
}

function DropZone({
  onFiles,
  isParsing,
  rejection,
}: {
  onFiles: (files: readonly File[]) => void;
  isParsing: boolean;
  rejection: FileRejection | null;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setIsOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setIsOver(false);
    if (!isParsing) onFiles([...event.dataTransfer.files]);
  };
  return (
    <div className="space-y-2">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-border px-6 py-10 text-center',
          isOver && 'border-primary bg-primary/5',
        )}
      >
        {isParsing ? (
          <Loader2 className="size-8 animate-spin text-muted-foreground" aria-hidden />
        ) : (
          <FileSpreadsheetIcon className="size-8 text-muted-foreground" aria-hidden />
        )}
        <p className="text-sm font-medium">{isParsing ? t('import:reading') : t('import:dropHere')}</p>
        <p className="text-xs text-muted-foreground">{t('import:accepted')}</p>
        <Button variant="outline" size="sm" disabled={isParsing} onClick={() => input.current?.click()}>
          {t('import:choose')}
        </Button>
        <input
          ref={input}
          type="file"
          accept={ACCEPTED_EXTENSIONS.join(',')}
          className="hidden"
          data-testid="import-file-input"
          onChange={(event) => {
            onFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      {rejection && (
        <p role="alert" className="text-sm text-destructive">
          {rejection === 'type'
            ? t('import:rejected.type', { types: ACCEPTED_EXTENSIONS.join(', ') })
            : t('import:rejected.count')}
        </p>
      )}
      <TemplateHelp />
    </div>
  );
}

/** Spec §5's template text. */
function TemplateHelp() {
  const { t } = useTranslation();
  return (
    <ul className="list-disc space-y-0.5 pl-5 text-xs text-muted-foreground">
      <li>{t('import:help.required')}</li>
      <li>{t('import:help.optional')}</li>
      <li>{t('import:help.duplicates')}</li>
      <li>{t('import:help.invalid')}</li>
      <li>{t('import:help.dates')}</li>
    </ul>
  );
}

function PreviewPanel({
  file,
  preview,
  onRemove,
  isWorking,
}: {
  file: File;
  preview: ImportPreview;
  onRemove: () => void;
  isWorking: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const quarterColumns = QUARTER_FIELDS.filter((field) =>
    preview.preview.some((row) => row[field] !== undefined),
  );
  const issues = [...preview.errors, ...preview.warnings].sort((a, b) => a.row - b.row);
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2 rounded-md border border-border px-3 py-2">
        <span className="flex min-w-0 items-center gap-2 text-sm">
          <FileSpreadsheetIcon className="size-4 shrink-0" aria-hidden />
          <span className="truncate font-medium">{file.name}</span>
        </span>
        <Button
          variant="ghost"
          size="sm"
          onClick={onRemove}
          disabled={isWorking}
          aria-label={t('import:remove')}
        >
          <XIcon aria-hidden />
          {t('import:remove')}
        </Button>
      </div>
      <div className="flex items-center gap-2">
        <p className="text-sm" data-testid="import-summary">
          {t('import:summary', {
            valid: format.number(preview.validRowCount),
            total: format.number(preview.totalRows),
            errors: format.number(preview.errorCount),
            warnings: format.number(preview.warningCount),
            duplicates: format.number(preview.duplicateCount),
          })}
        </p>
        <AiHelpBubble context="data-validation" />
      </div>
      {preview.preview.length > 0 && (
        <div className="overflow-x-auto rounded-md border border-border">
          <table className="w-full text-xs" aria-label={t('import:previewLabel')}>
            <thead className="bg-muted/50 text-left text-muted-foreground">
              <tr>
                <th className="px-2 py-1.5 font-medium">{t('import:column.row')}</th>
                <th className="px-2 py-1.5 font-medium">{t('import:column.sku')}</th>
                <th className="px-2 py-1.5 font-medium">{t('import:column.category')}</th>
                <th className="px-2 py-1.5 font-medium">{t('import:column.businessUnit')}</th>
                <th className="px-2 py-1.5 font-medium">{t('import:column.region')}</th>
                <th className="px-2 py-1.5 font-medium">{t('import:column.site')}</th>
                <th className="px-2 py-1.5 font-medium">{t('import:column.plannerName')}</th>
                {quarterColumns.map((field) => (
                  <th key={field} className="px-2 py-1.5 text-right font-medium">
                    {field.startsWith('forecast')
                      ? t('import:column.forecastQuarter', { quarter: field.slice(-1) })
                      : t('import:column.overrideQuarter', { quarter: field.slice(-1) })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {preview.preview.map((row) => (
                <tr key={row.row} className="border-t border-border">
                  <td className="px-2 py-1.5">{row.row}</td>
                  <td className="px-2 py-1.5 font-medium">{row.sku}</td>
                  <td className="px-2 py-1.5">{row.category}</td>
                  <td className="px-2 py-1.5">{row.businessUnit}</td>
                  <td className="px-2 py-1.5">{row.region ?? ''}</td>
                  <td className="px-2 py-1.5">{row.site ?? ''}</td>
                  <td className="px-2 py-1.5">{row.plannerName ?? ''}</td>
                  {quarterColumns.map((field) => (
                    <td key={field} className="px-2 py-1.5 text-right">
                      {row[field] === undefined ? '' : format.number(row[field])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {preview.plan.length > 0 && <PlanTable plan={preview.plan} />}
      {issues.length > 0 && <IssueList issues={issues} />}
      {preview.duplicates.length > 0 && (
        <p className="text-xs text-muted-foreground">
          {t('import:duplicates', { skus: preview.duplicates.slice(0, 20).join(', ') })}
        </p>
      )}
    </div>
  );
}

/**
 * What Import will do to the plan: per row, each quarter's Final before → after; a quarter whose
 * value a warning turned into 0 is marked, so a typo that wipes a quarter shows before Import.
 */
function PlanTable({ plan }: { plan: ImportPlanRow[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const value = (units: number | null) => (units === null ? '–' : format.number(units));
  return (
    <div className="max-h-56 overflow-auto rounded-md border border-border">
      <table className="w-full text-xs" aria-label={t('import:planLabel')}>
        <thead className="bg-muted/50 text-left text-muted-foreground">
          <tr>
            <th className="px-2 py-1.5 font-medium">{t('import:column.row')}</th>
            <th className="px-2 py-1.5 font-medium">{t('import:column.sku')}</th>
            {[1, 2, 3, 4].map((quarter) => (
              <th key={quarter} className="px-2 py-1.5 text-right font-medium">
                {t('import:column.finalQuarter', { quarter })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {plan.map((row) => (
            <tr key={row.row} className="border-t border-border">
              <td className="px-2 py-1.5">{row.row}</td>
              <td className="px-2 py-1.5 font-medium">
                {row.sku}
                {row.action === 'create' && (
                  <span className="ml-1 text-muted-foreground">{t('import:newSku')}</span>
                )}
              </td>
              {row.quarters.map((quarter) => {
                const changed = quarter.before !== quarter.after;
                return (
                  <td
                    key={quarter.quarter}
                    data-testid={`plan-${row.sku}-q${quarter.quarter}`}
                    data-zeroed={quarter.zeroed || undefined}
                    title={quarter.zeroed ? t('import:zeroed') : undefined}
                    className={
                      quarter.zeroed
                        ? 'bg-destructive/10 px-2 py-1.5 text-right font-medium text-destructive'
                        : `px-2 py-1.5 text-right ${changed ? 'font-medium' : 'text-muted-foreground'}`
                    }
                  >
                    {changed
                      ? t('import:planChange', { before: value(quarter.before), after: value(quarter.after) })
                      : value(quarter.after)}
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

function IssueList({ issues }: { issues: ImportIssue[] }) {
  const { t } = useTranslation();
  return (
    <ul className="max-h-40 space-y-1 overflow-y-auto text-xs" aria-label={t('import:issuesLabel')}>
      {issues.map((issue, index) => (
        <li key={`${issue.row}-${issue.field}-${index}`} className="flex items-start gap-2">
          <Badge variant={issue.severity === 'error' ? 'destructive' : 'warning'}>
            {issue.severity === 'error' ? t('import:severity.error') : t('import:severity.warning')}
          </Badge>
          <span>{t('import:issue', { row: issue.row, field: issue.field, message: issue.message })}</span>
        </li>
      ))}
    </ul>
  );
}
