import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { defaultPreferences, parsePreferences } from '../utils/preferences';

const defaults = defaultPreferences({ ...DEFAULT_USER_SETTINGS, defaultViewLevel: 'business_unit' });

describe('planning preferences', () => {
  it("seed the view level and drill-down from the user's settings, 100 rows and 700 px", () => {
    expect(defaults).toEqual({
      pageSize: 100,
      gridHeight: 700,
      autoSave: false,
      viewLevel: 'business_unit',
      drillDownType: 'none',
    });
  });
  it('read what was stored', () => {
    const stored = JSON.stringify({
      pageSize: 200,
      gridHeight: 700,
      autoSave: true,
      viewLevel: 'none',
      drillDownType: 'monthly',
    });
    expect(parsePreferences(stored, defaults)).toEqual({
      pageSize: 200,
      gridHeight: 700,
      autoSave: true,
      viewLevel: 'none',
      drillDownType: 'monthly',
    });
  });
  it('fall back field by field on bad values, and wholly on bad JSON', () => {
    expect(parsePreferences(JSON.stringify({ pageSize: 7, viewLevel: 'galaxy' }), defaults)).toEqual(
      defaults,
    );
    expect(parsePreferences('{not json', defaults)).toEqual(defaults);
    expect(parsePreferences(null, defaults)).toEqual(defaults);
  });
});
