import type { BatchUpdate, DemandRecord, EditableField, EditableValues, GridRow } from '@ps/domain';

/** One edited cell: the value the server gave and the value the planner typed. */
export type CellChange<F extends EditableField = EditableField> = {
  oldValue: EditableValues[F];
  newValue: EditableValues[F];
};

/** The unsaved edits of one record, with the version it was read at (for the stale check). */
export type PendingRecord = {
  PID: string;
  Time_Series_sk: string;
  version: number;
  changes: Partial<{ [F in EditableField]: CellChange<F> }>;
};

/** Unsaved edits keyed by record; kept across pages so paging in edit mode loses nothing. */
export type PendingChanges = ReadonlyMap<string, PendingRecord>;

export const NO_PENDING_CHANGES: PendingChanges = new Map();

export function recordKeyOf(record: Pick<DemandRecord, 'PID' | 'Time_Series_sk'>): string {
  return `${record.PID}|${record.Time_Series_sk}`;
}

/**
 * Records one cell edit. `record` is the row as the server gave it (never the edited copy), so an
 * edit back to the server's value removes the change, and an edit to the same value is ignored.
 */
export function recordEdit<F extends EditableField>(
  pending: PendingChanges,
  record: DemandRecord,
  field: F,
  newValue: EditableValues[F],
): PendingChanges {
  const key = recordKeyOf(record);
  const existing = pending.get(key);
  const oldValue = record[field];
  const changes = { ...existing?.changes };
  if (Object.is(oldValue, newValue)) delete changes[field];
  else changes[field] = { oldValue, newValue } as PendingRecord['changes'][F];
  const next = new Map(pending);
  if (Object.keys(changes).length === 0) next.delete(key);
  else
    next.set(key, {
      PID: record.PID,
      Time_Series_sk: record.Time_Series_sk,
      version: existing?.version ?? record.version,
      changes,
    });
  return next;
}

export function changeCounts(pending: PendingChanges): { changes: number; records: number } {
  let changes = 0;
  for (const record of pending.values()) changes += Object.keys(record.changes).length;
  return { changes, records: pending.size };
}

export function isCellChanged(pending: PendingChanges, key: string, field: EditableField): boolean {
  return pending.get(key)?.changes[field] !== undefined;
}

/** The row as the planner sees it: the server's record with their unsaved values laid over it. */
export function withPendingValues(record: DemandRecord, pending: PendingChanges): DemandRecord {
  const entry = pending.get(recordKeyOf(record));
  if (!entry) return record;
  const edited: DemandRecord = { ...record };
  for (const [field, change] of Object.entries(entry.changes) as [EditableField, CellChange][]) {
    (edited as Record<EditableField, unknown>)[field] = change.newValue;
  }
  return edited;
}

/**
 * The body of POST /real-data/batch: changed fields only, each with the version it was read at.
 * Records without PID or Time_Series_sk are skipped (spec §5); an empty result means "No Valid Changes".
 */
export function toBatchUpdates(pending: PendingChanges): BatchUpdate['updates'] {
  const updates: BatchUpdate['updates'] = [];
  for (const record of pending.values()) {
    if (!record.PID || !record.Time_Series_sk) continue;
    const fields = Object.fromEntries(
      Object.entries(record.changes).map(([field, change]) => [field, change.newValue]),
    );
    if (Object.keys(fields).length === 0) continue;
    updates.push({
      PID: record.PID,
      Time_Series_sk: record.Time_Series_sk,
      version: record.version,
      ...fields,
    });
  }
  return updates;
}

/** Drops the edits of the given records (after a stale save, their base values changed). */
export function withoutRecords(pending: PendingChanges, keys: Iterable<string>): PendingChanges {
  const next = new Map(pending);
  for (const key of keys) next.delete(key);
  return next;
}

/** A grid row's identity: a roll-up row's id, or a record's key. */
export function gridRowIdOf(row: GridRow): string {
  return 'id' in row && typeof row.id === 'string' ? row.id : recordKeyOf(row as DemandRecord);
}

/**
 * The selected row as the page on screen now holds it: after a save, a spread or a refresh the
 * row-detail panel shows the new figures, not those of the click. Off the page, the row as clicked.
 */
export function currentRowOf(selected: GridRow | null, rows: readonly GridRow[] | undefined): GridRow | null {
  if (!selected || !rows) return selected;
  const id = gridRowIdOf(selected);
  return rows.find((row) => gridRowIdOf(row) === id) ?? selected;
}
