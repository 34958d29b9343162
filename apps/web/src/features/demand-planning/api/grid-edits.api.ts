import {
  spreadingEndpoints,
  type LockRequest,
  type RecordHistoryEntry,
  type SpreadCellResult,
  type SpreadRequest,
} from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

/**
 * An aggregate edit: with `preview` what it would move, else saved, what it moved and the cell's
 * row as its view now sums it.
 */
export function spreadAggregateEdit(request: SpreadRequest): Promise<SpreadCellResult> {
  return callEndpoint(spreadingEndpoints.spread, { body: request });
}

export function setRecordLocks(request: LockRequest) {
  return callEndpoint(spreadingEndpoints.locks, { body: request });
}

export function fetchRecordHistory(
  key: { pid: string; timeSeriesSk: string },
  signal?: AbortSignal,
): Promise<RecordHistoryEntry[]> {
  return callEndpoint(spreadingEndpoints.history, { params: key, signal });
}

/** How many records the signed-in user's last save changed (0: nothing to undo). */
export function fetchLastSaveSize() {
  return callEndpoint(spreadingEndpoints.lastSave, { parse: true });
}

/** Undoes the signed-in user's last save (as a new audited change). */
export function undoLastSave() {
  return callEndpoint(spreadingEndpoints.undo);
}
