import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { isServerNewer } from '@/lib/settings/server-settings';

const saved = (updatedAt: string | null) => ({
  settings: updatedAt ? DEFAULT_USER_SETTINGS : null,
  updatedAt,
});

describe('isServerNewer', () => {
  it('lets a save from another browser replace the cache, and never an older or missing copy', () => {
    expect(isServerNewer(saved('2026-11-22T10:00:00.000Z'), null)).toBe(true);
    expect(isServerNewer(saved('2026-11-22T10:00:00.000Z'), '2026-11-22T09:00:00.000Z')).toBe(true);
    expect(isServerNewer(saved('2026-11-22T10:00:00.000Z'), '2026-11-22T10:00:00.000Z')).toBe(false);
    expect(isServerNewer(saved(null), null)).toBe(false);
  });
});
