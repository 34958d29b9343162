import type { DemandRecord, EditableField } from '@ps/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import { i18next } from '@/i18n/i18n';
import { saveBatch, staleRecordsOf } from '../api/demand-planning.api';
import { invalidKeyOf } from '../grid/columns';
import type { InvalidEdit } from '../grid/EditableCell';
import { parseEditValue } from '../utils/edit-values';
import {
  changeCounts,
  NO_PENDING_CHANGES,
  recordEdit,
  recordKeyOf,
  toBatchUpdates,
  withoutRecords,
  type PendingChanges,
} from '../utils/pending-changes';
import { reloadDashboard } from './useDashboardData';
import { applySavedRows, reloadAfterWrite } from './useGridPage';

/** Records someone else changed since they were read: reported, their edits set aside, never overwritten. */
export type StaleReport = {
  message: string;
  records: Pick<DemandRecord, 'PID' | 'Time_Series_sk' | 'last_updated_by'>[];
};

export type GridEditing = {
  isEditMode: boolean;
  pending: PendingChanges;
  /** Values typed that the rules refused, shown with their reason at their cell until replaced. */
  invalid: ReadonlyMap<string, InvalidEdit>;
  counts: { changes: number; records: number };
  isSaving: boolean;
  staleReport: StaleReport | null;
  dismissStaleReport: () => void;
  /** True while the "discard and exit?" question is open. */
  isExitConfirmOpen: boolean;
  enterEditMode: () => void;
  requestExitEditMode: () => void;
  confirmExitEditMode: () => void;
  cancelExitEditMode: () => void;
  editCell: (record: DemandRecord, field: EditableField, raw: unknown) => void;
  /** Marks (message) or clears (null) a refused value typed into an aggregated cell. */
  markRefused: (key: string, raw: unknown, message: string | null) => void;
  save: () => void;
  discard: () => void;
};

/** What the planner typed, as they typed it (editors hand over text or numbers). */
const typedText = (raw: unknown): string =>
  typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';

const NO_INVALID_EDITS: ReadonlyMap<string, InvalidEdit> = new Map();

/** With auto-save on, edits are saved this long after the last one, so a burst of edits is one save. */
export const AUTO_SAVE_DELAY_MS = 2_000;

/**
 * Edit mode of spec §4/§5: pending edits with old and new values, Save, Discard and the exit
 * question; with auto-save on, pending edits save themselves shortly after the last edit.
 */
export function useGridEditing({ isAutoSave }: { isAutoSave: boolean }): GridEditing {
  const queryClient = useQueryClient();
  const [isEditMode, setEditMode] = useState(false);
  const [pending, setPending] = useState<PendingChanges>(NO_PENDING_CHANGES);
  const [invalid, setInvalid] = useState<ReadonlyMap<string, InvalidEdit>>(NO_INVALID_EDITS);
  const [staleReport, setStaleReport] = useState<StaleReport | null>(null);
  const [isExitConfirmOpen, setExitConfirmOpen] = useState(false);

  const mutation = useMutation({
    mutationFn: saveBatch,
    onSuccess: (result) => {
      // The saved records replace the pending edits in the same render: the grid goes from the
      // edited values to the saved ones (and their recomputed plan) without showing the old ones.
      applySavedRows(queryClient, { kind: 'records', records: result.items });
      setPending(NO_PENDING_CHANGES);
      setStaleReport(null);
      toast({
        title: i18next.t('planning:toast.saved.title'),
        description: i18next.t('planning:toast.saved.description', {
          changes: result.changedFields,
          records: result.updatedRecords,
        }),
      });
      // The dashboard's totals are read again in the background; the save is confirmed already.
      void reloadDashboard(queryClient);
    },
    onError: async (error) => {
      toast({
        title: i18next.t('planning:toast.saveFailed.title'),
        description: errorText(error) || i18next.t('planning:toast.saveFailed.description'),
        variant: 'destructive',
      });
      const stale = staleRecordsOf(error);
      if (stale) {
        // The whole batch was refused; set aside the edits of the records that changed underneath
        // and keep the rest pending, so the planner can look at the new values and save again.
        setPending((current) => withoutRecords(current, stale.map(recordKeyOf)));
        setStaleReport({ message: errorText(error), records: stale });
        await reloadAfterWrite(queryClient);
      }
    },
  });

  const discardAll = useCallback(() => {
    setPending(NO_PENDING_CHANGES);
    setInvalid(NO_INVALID_EDITS);
  }, []);

  const enterEditMode = useCallback(() => {
    // Spec §4: edit mode off → on clears pending changes.
    setPending(NO_PENDING_CHANGES);
    setInvalid(NO_INVALID_EDITS);
    setEditMode(true);
    toast({
      title: i18next.t('planning:toast.editOn.title'),
      description: i18next.t('planning:toast.editOn.description'),
    });
  }, []);

  const leaveEditMode = useCallback(() => {
    setPending(NO_PENDING_CHANGES);
    setInvalid(NO_INVALID_EDITS);
    setEditMode(false);
    setExitConfirmOpen(false);
    toast({
      title: i18next.t('planning:toast.editOff.title'),
      description: i18next.t('planning:toast.editOff.description'),
    });
  }, []);

  const requestExitEditMode = useCallback(() => {
    if (pending.size > 0) setExitConfirmOpen(true);
    else leaveEditMode();
  }, [pending.size, leaveEditMode]);

  const editCell = useCallback((record: DemandRecord, field: EditableField, raw: unknown) => {
    const parsed = parseEditValue(field, raw);
    const key = invalidKeyOf(record, field);
    if (!parsed.ok) {
      toast({
        title: i18next.t('planning:toast.invalid.title'),
        description: parsed.message,
        variant: 'destructive',
      });
      setInvalid((current) => new Map(current).set(key, { raw: typedText(raw), message: parsed.reason }));
      return;
    }
    setInvalid((current) => {
      if (!current.has(key)) return current;
      const next = new Map(current);
      next.delete(key);
      return next;
    });
    setPending((current) => recordEdit(current, record, field, parsed.value));
  }, []);

  const markRefused = useCallback((key: string, raw: unknown, message: string | null) => {
    setInvalid((current) => {
      if (message === null && !current.has(key)) return current;
      const next = new Map(current);
      if (message === null) next.delete(key);
      else next.set(key, { raw: typedText(raw), message });
      return next;
    });
  }, []);

  const save = useCallback(() => {
    if (pending.size === 0) {
      toast({
        title: i18next.t('planning:toast.noChanges.title'),
        description: i18next.t('planning:toast.noChanges.description'),
      });
      return;
    }
    const updates = toBatchUpdates(pending);
    if (updates.length === 0) {
      toast({
        title: i18next.t('planning:toast.noValid.title'),
        description: i18next.t('planning:toast.noValid.description'),
        variant: 'destructive',
      });
      return;
    }
    mutation.mutate(updates);
  }, [pending, mutation]);

  const { mutate, isPending: isSaving } = mutation;
  useEffect(() => {
    if (!isAutoSave || !isEditMode || pending.size === 0 || isSaving) return;
    const updates = toBatchUpdates(pending);
    if (updates.length === 0) return;
    const timer = setTimeout(() => mutate(updates), AUTO_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isAutoSave, isEditMode, pending, isSaving, mutate]);

  const discard = useCallback(() => {
    discardAll();
    toast({
      title: i18next.t('planning:toast.discarded.title'),
      description: i18next.t('planning:toast.discarded.description'),
    });
  }, [discardAll]);

  return {
    isEditMode,
    pending,
    invalid,
    counts: changeCounts(pending),
    isSaving,
    staleReport,
    dismissStaleReport: () => setStaleReport(null),
    isExitConfirmOpen,
    enterEditMode,
    requestExitEditMode,
    confirmExitEditMode: leaveEditMode,
    cancelExitEditMode: () => setExitConfirmOpen(false),
    editCell,
    markRefused,
    save,
    discard,
  };
}
