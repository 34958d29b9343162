import type { DemandRecord, RecordStamp } from '@ps/domain';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { HistoryIcon, LockIcon, LockOpenIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export type RecordActionsParams = {
  stampOf: (record: DemandRecord) => RecordStamp | undefined;
  onToggleLock: (record: DemandRecord, locked: boolean) => void;
  onShowHistory: (record: DemandRecord) => void;
};

/** Per record: the lock against aggregate edits (a toggle) and the record's history. */
export function RecordActionsCell(props: CustomCellRendererProps & RecordActionsParams) {
  const { t } = useTranslation();
  const record = props.data as DemandRecord | undefined;
  if (!record) return null;
  const isLocked = props.stampOf(record)?.locked ?? false;
  return (
    <span className="inline-flex items-center gap-1">
      <button
        type="button"
        className="rounded p-1 hover:bg-muted"
        aria-pressed={isLocked}
        aria-label={t(isLocked ? 'grid:lock.unlock' : 'grid:lock.lock', { pid: record.PID })}
        title={t(isLocked ? 'grid:lock.lockedTooltip' : 'grid:lock.unlockedTooltip')}
        data-testid="lock-toggle"
        onClick={() => props.onToggleLock(record, !isLocked)}
      >
        {isLocked ? (
          <LockIcon className="size-3.5 text-warning" aria-hidden />
        ) : (
          <LockOpenIcon className="size-3.5 text-muted-foreground" aria-hidden />
        )}
      </button>
      <button
        type="button"
        className="rounded p-1 hover:bg-muted"
        aria-label={t('grid:history.open', { pid: record.PID })}
        title={t('grid:history.title')}
        data-testid="history-button"
        onClick={() => props.onShowHistory(record)}
      >
        <HistoryIcon className="size-3.5 text-muted-foreground" aria-hidden />
      </button>
    </span>
  );
}
