import type { AggregatedRow, GridPage, RecordChangeEvent } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { conflictingEdits, isPageAffected } from '../utils/live-changes';
import { NO_PENDING_CHANGES, recordEdit, recordKeyOf } from '../utils/pending-changes';
import { demandRecord } from './demand-record.fixture';

const valve = demandRecord({ PID: 'VAL-0001', PF: 'Ball Valves', BU: 'Flow Control', version: 3 });
const pump = demandRecord({ PID: 'PMP-0001', PF: 'Pumps', BU: 'Fluid Handling', version: 5 });

const recordsPage = (rows = [valve, pump]): GridPage => ({
  rows,
  total: rows.length,
  offset: 0,
  limit: 100,
  viewLevel: 'none',
  drillDown: 'none',
});

const groupPage = (viewLevel: 'category' | 'business_unit', rows: Partial<AggregatedRow>[]): GridPage => ({
  ...recordsPage(),
  viewLevel,
  rows: rows.map((row, i) => ({ id: `g${i}`, ...row }) as AggregatedRow),
});

const change = (patch: Partial<RecordChangeEvent>): RecordChangeEvent => ({
  records: 1,
  products: 1,
  pids: ['VAL-0001'],
  families: ['Ball Valves'],
  businessUnits: ['Flow Control'],
  ...patch,
});

describe('isPageAffected', () => {
  it('matches record rows by product, or by family when the change lists too many products', () => {
    expect(isPageAffected(recordsPage(), change({}), false)).toBe(true);
    expect(isPageAffected(recordsPage([pump]), change({}), false)).toBe(false);
    expect(isPageAffected(recordsPage([pump]), change({ pids: null, families: ['Pumps'] }), false)).toBe(
      true,
    );
    expect(isPageAffected(recordsPage([pump]), change({ pids: null }), false)).toBe(false);
    expect(isPageAffected(recordsPage([pump]), change({ pids: null, families: null }), false)).toBe(true);
  });

  it('matches family and business-unit rows by their group', () => {
    const families = groupPage('category', [{ PF: 'Pumps' }]);
    expect(isPageAffected(families, change({}), false)).toBe(false);
    expect(isPageAffected(families, change({ families: ['Pumps', 'Ball Valves'] }), false)).toBe(true);
    const units = groupPage('business_unit', [{ BU: 'Flow Control' }]);
    expect(isPageAffected(units, change({}), false)).toBe(true);
    expect(isPageAffected(units, change({ businessUnits: ['Fluid Handling'] }), false)).toBe(false);
  });

  it('refetches a sorted page whatever changed (rows may move into it)', () => {
    expect(isPageAffected(recordsPage([pump]), change({}), true)).toBe(true);
  });
});

describe('conflictingEdits', () => {
  it('flags pending edits whose record now carries a newer version, and only those', () => {
    let pending = recordEdit(NO_PENDING_CHANGES, valve, 'Rev_Pln_Ovrd_Percent', 10);
    pending = recordEdit(pending, pump, 'Comments', 'mine');
    const afterOtherSave = recordsPage([{ ...valve, version: 4 }, pump]);
    expect([...conflictingEdits(pending, afterOtherSave)]).toEqual([recordKeyOf(valve)]);
    expect(conflictingEdits(pending, recordsPage()).size).toBe(0);
    expect(conflictingEdits(NO_PENDING_CHANGES, afterOtherSave).size).toBe(0);
  });
});
