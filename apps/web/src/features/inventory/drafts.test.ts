import type { InventoryRow } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { changeOf, draftOf, isModified, withPercent, withUnits } from './drafts';

const row = {
  sku: 'PRD-00001',
  site: 'Dallas DC',
  version: 3,
  recommendedOULTarget: 48,
  overrideOULUnits: null,
  overridePercentage: null,
  reasonCode: null,
  comments: null,
} as unknown as InventoryRow;

describe('inventory drafts', () => {
  it('units set the percent and percent sets the units (spec §5)', () => {
    const byUnits = withUnits(draftOf(row), '55', 48);
    expect(byUnits).toMatchObject({ overrideOULUnits: 55, overridePercentage: 114.6 });
    const byPercent = withPercent(draftOf(row), '114.6', 48);
    expect(byPercent).toMatchObject({ overrideOULUnits: 55, overridePercentage: 114.6 });
    expect(isModified(row, byUnits)).toBe(true);
  });
  it('clearing clears both and sends no reason', () => {
    const cleared = withUnits({ ...draftOf(row), overrideOULUnits: 5, reasonCode: 'Other' }, '', 48);
    expect(cleared).toMatchObject({ overrideOULUnits: null, overridePercentage: null });
    expect(isModified(row, cleared)).toBe(false);
    expect(changeOf(row, cleared)).toEqual({
      sku: 'PRD-00001',
      site: 'Dallas DC',
      version: 3,
      overrideOULUnits: null,
      overridePercentage: null,
      reasonCode: null,
      comments: null,
    });
  });
});
