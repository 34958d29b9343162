import { describe, expect, it } from 'vitest';
import {
  changeCounts,
  currentRowOf,
  isCellChanged,
  NO_PENDING_CHANGES,
  recordEdit,
  recordKeyOf,
  toBatchUpdates,
  withoutRecords,
  withPendingValues,
} from '../utils/pending-changes';
import { demandRecord } from './demand-record.fixture';

const first = demandRecord();
const second = demandRecord({ PID: 'VAL-0002', version: 7, Comments: 'old note' });

describe('pending changes', () => {
  it('records each edit with the old and new value and the version read', () => {
    const pending = recordEdit(NO_PENDING_CHANGES, first, 'Rev_Pln_Ovrd_Percent', 12.5);
    expect(pending.get(recordKeyOf(first))).toEqual({
      PID: 'VAL-0001',
      Time_Series_sk: '20261115',
      version: 3,
      changes: { Rev_Pln_Ovrd_Percent: { oldValue: null, newValue: 12.5 } },
    });
  });

  it('ignores an edit to the value the record already has', () => {
    expect(recordEdit(NO_PENDING_CHANGES, second, 'Comments', 'old note').size).toBe(0);
  });

  it('forgets a change edited back to the original value', () => {
    const edited = recordEdit(NO_PENDING_CHANGES, first, 'SOP_Pln_Ovrd_Units', 120);
    const reverted = recordEdit(edited, first, 'SOP_Pln_Ovrd_Units', null);
    expect(reverted.size).toBe(0);
  });

  it('counts changes and records for "Save Changes (n)" and the saved toast', () => {
    let pending = recordEdit(NO_PENDING_CHANGES, first, 'Rev_Pln_Ovrd_Percent', 5);
    pending = recordEdit(pending, first, 'Reason_Code', 'Market Trend');
    pending = recordEdit(pending, second, 'Comments', 'new note');
    expect(changeCounts(pending)).toEqual({ changes: 3, records: 2 });
    expect(isCellChanged(pending, recordKeyOf(first), 'Reason_Code')).toBe(true);
    expect(isCellChanged(pending, recordKeyOf(second), 'Reason_Code')).toBe(false);
  });

  it('lays unsaved values over the server record without touching it', () => {
    const pending = recordEdit(NO_PENDING_CHANGES, first, 'SOP_Pln_Ovrd_Percent', 10);
    const shown = withPendingValues(first, pending);
    expect(shown.SOP_Pln_Ovrd_Percent).toBe(10);
    expect(first.SOP_Pln_Ovrd_Percent).toBeNull();
    expect(withPendingValues(second, pending)).toBe(second);
  });

  it('builds the batch body: changed fields only, with versions', () => {
    let pending = recordEdit(NO_PENDING_CHANGES, first, 'Rev_Pln_Ovrd_Units', 140);
    pending = recordEdit(pending, second, 'Comments', null);
    expect(toBatchUpdates(pending)).toEqual([
      { PID: 'VAL-0001', Time_Series_sk: '20261115', version: 3, Rev_Pln_Ovrd_Units: 140 },
      { PID: 'VAL-0002', Time_Series_sk: '20261115', version: 7, Comments: null },
    ]);
  });

  it('skips records missing PID or Time_Series_sk', () => {
    const pending = recordEdit(NO_PENDING_CHANGES, demandRecord({ PID: '' }), 'Comments', 'x');
    expect(toBatchUpdates(pending)).toEqual([]);
  });

  it('drops the edits of stale records only', () => {
    let pending = recordEdit(NO_PENDING_CHANGES, first, 'Comments', 'a');
    pending = recordEdit(pending, second, 'Comments', 'b');
    const left = withoutRecords(pending, [recordKeyOf(first)]);
    expect([...left.keys()]).toEqual([recordKeyOf(second)]);
  });
});

describe('currentRowOf (the row-detail panel after a save)', () => {
  const before = demandRecord({ PID: 'PRD-1', Final_Pln_Units: 10 });
  const saved = { ...before, Final_Pln_Units: 250 };
  const other = demandRecord({ PID: 'PRD-2' });

  it('shows the selected record as the page now holds it', () => {
    expect(currentRowOf(before, [other, saved])).toBe(saved);
  });

  it('keeps the row as clicked when the page no longer holds it, and nothing when none was clicked', () => {
    expect(currentRowOf(before, [other])).toBe(before);
    expect(currentRowOf(null, [saved])).toBeNull();
    expect(currentRowOf(before, undefined)).toBe(before);
  });
});
