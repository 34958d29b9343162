import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HIDDEN_COLUMNS,
  chooserGroupsOf,
  hiddenColumnsKey,
  hiddenOn,
  parseHiddenColumns,
  toggleColumn,
  viewNameProblem,
  type GridColumnInfo,
} from '../utils/column-choice';

const col = (id: string, isKey = false): GridColumnInfo => ({
  id,
  headerKey: `planning:column.${id}`,
  isKey,
});

describe('column chooser', () => {
  it('groups the columns as the grid orders them and leaves out empty groups', () => {
    const groups = chooserGroupsOf([
      col('PF', true),
      col('recordCount'),
      col('Ensemble_Fcst_Units'),
      col('SOP_Pln_Ovrd_Units'),
      col('Final_Pln_Units'),
      col('Rev_Pln_Ovrd_Units'),
      col('somethingNew'),
    ]);
    expect(groups.map((g) => [g.id, g.columns.map((c) => c.id)])).toEqual([
      ['item', ['PF', 'recordCount']],
      ['forecast', ['Ensemble_Fcst_Units']],
      ['revenuePlan', ['Rev_Pln_Ovrd_Units']],
      ['finalPlan', ['SOP_Pln_Ovrd_Units', 'Final_Pln_Units']],
      ['other', ['somethingNew']],
    ]);
  });

  it('hides by default neither the forecast, the overrides nor the final plan', () => {
    for (const shown of [
      'Ensemble_Fcst_Units',
      'Rev_Pln_Ovrd_Percent',
      'Rev_Pln_Ovrd_Units',
      'SOP_Pln_Ovrd_Percent',
      'SOP_Pln_Ovrd_Units',
      'Final_Pln_Units',
      'PID',
    ])
      expect(DEFAULT_HIDDEN_COLUMNS).not.toContain(shown);
  });

  it('never hides a key column and toggles one column at a time', () => {
    const columns = [col('PF', true), col('Cost'), col('Rank')];
    expect([...hiddenOn(columns, new Set(['PF', 'Cost']))]).toEqual(['Cost']);
    expect(toggleColumn(['Cost'], 'Rank', false)).toEqual(['Cost', 'Rank']);
    expect(toggleColumn(['Cost', 'Rank'], 'Cost', true)).toEqual(['Rank']);
    expect(toggleColumn(['Cost'], 'Cost', false)).toEqual(['Cost']);
  });

  it('reads a stored choice per user and falls back to the default on anything unreadable', () => {
    expect(hiddenColumnsKey('u1')).not.toBe(hiddenColumnsKey('u2'));
    expect(parseHiddenColumns(null)).toEqual(DEFAULT_HIDDEN_COLUMNS);
    expect(parseHiddenColumns('{"hidden":[]}')).toEqual([]);
    expect(parseHiddenColumns('{"hidden":["Cost"]}')).toEqual(['Cost']);
    expect(parseHiddenColumns('not json')).toEqual(DEFAULT_HIDDEN_COLUMNS);
    expect(parseHiddenColumns('{"hidden":"Cost"}')).toEqual(DEFAULT_HIDDEN_COLUMNS);
  });
});

describe('saved view names', () => {
  const views = [
    { id: 1, name: 'EMEA monthly' },
    { id: 2, name: 'Pumps' },
  ];
  it('are 1–60 characters once trimmed and unique per user whatever the case', () => {
    expect(viewNameProblem('   ', views)).toBe('empty');
    expect(viewNameProblem('x'.repeat(61), views)).toBe('tooLong');
    expect(viewNameProblem(` ${'x'.repeat(60)} `, views)).toBeNull();
    expect(viewNameProblem('emea MONTHLY', views)).toBe('taken');
    // Renaming a view to itself in another case is no clash.
    expect(viewNameProblem('emea MONTHLY', views, 1)).toBeNull();
    expect(viewNameProblem('Pumps', views, 1)).toBe('taken');
  });
});
