import type { RecordHistoryEntry } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorText } from '@/i18n/error-text';
import { useFormatters } from '@/lib/settings/useFormatters';
import { useTranslation } from 'react-i18next';
import { fetchRecordHistory } from '../api/grid-edits.api';

/** Which cell's history is open: a record, and the field when opened from one cell. */
export type HistoryTarget = { PID: string; Time_Series_sk: string; field: string | null };

const ORIGIN_KEYS: Record<RecordHistoryEntry['origin'], string> = {
  planner: 'grid:history.origin.planner',
  aggregate: 'grid:history.origin.aggregate',
  undo: 'grid:history.origin.undo',
  import: 'grid:history.origin.import',
  forecast: 'grid:history.origin.forecast',
  publish: 'grid:history.origin.publish',
  other: 'grid:history.origin.other',
};

/** A cell's audit trail: who, when, old → new, where it came from, reason and comment. */
export function CellHistoryDialog({
  target,
  onClose,
}: {
  target: HistoryTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const history = useQuery({
    queryKey: ['demand-planning', 'history', target?.PID, target?.Time_Series_sk],
    queryFn: ({ signal }) =>
      fetchRecordHistory({ pid: target!.PID, timeSeriesSk: target!.Time_Series_sk }, signal),
    enabled: target !== null,
  });
  if (!target) return null;
  const entries = (history.data ?? []).filter((e) => target.field === null || e.field === target.field);
  const fieldName = (field: string) => (field === '*' ? field : t(`planning:column.${field}`));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" data-testid="cell-history">
        <DialogHeader>
          <DialogTitle>{t('grid:history.title')}</DialogTitle>
          <DialogDescription>
            {t('grid:history.subject', {
              pid: target.PID,
              week: fmt.date(
                `${target.Time_Series_sk.slice(0, 4)}-${target.Time_Series_sk.slice(4, 6)}-${target.Time_Series_sk.slice(6)}`,
              ),
              field: target.field ? fieldName(target.field) : t('grid:history.allFields'),
            })}
          </DialogDescription>
        </DialogHeader>
        {history.isPending && <p className="text-sm text-muted-foreground">{t('grid:history.loading')}</p>}
        {history.error && <p className="text-sm text-destructive">{errorText(history.error)}</p>}
        {history.data && entries.length === 0 && (
          <p className="text-sm text-muted-foreground">{t('grid:history.empty')}</p>
        )}
        {entries.length > 0 && (
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th className="py-1 pr-3 font-medium">{t('grid:history.when')}</th>
                <th className="py-1 pr-3 font-medium">{t('grid:history.who')}</th>
                <th className="py-1 pr-3 font-medium">{t('grid:history.field')}</th>
                <th className="py-1 pr-3 font-medium">{t('grid:history.change')}</th>
                <th className="py-1 pr-3 font-medium">{t('grid:history.from')}</th>
                <th className="py-1 font-medium">{t('grid:history.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} className="border-t border-border align-top" data-testid="history-entry">
                  <td className="py-1 pr-3 whitespace-nowrap">{fmt.dateTime(entry.changedAt)}</td>
                  <td className="py-1 pr-3">{entry.changedBy}</td>
                  <td className="py-1 pr-3">{fieldName(entry.field)}</td>
                  <td className="py-1 pr-3 whitespace-nowrap">
                    {entry.oldValue ?? '∅'} → {entry.newValue ?? '∅'}
                  </td>
                  <td className="py-1 pr-3">
                    <span data-testid="history-origin">{t(ORIGIN_KEYS[entry.origin])}</span>
                    {entry.cause && (
                      <span className="block text-xs text-muted-foreground">{entry.cause}</span>
                    )}
                  </td>
                  <td className="py-1">
                    {entry.reasonCode ?? ''}
                    {entry.comment && (
                      <span className="block text-xs text-muted-foreground">{entry.comment}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </DialogContent>
    </Dialog>
  );
}
