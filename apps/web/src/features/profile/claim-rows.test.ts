import { describe, expect, it } from 'vitest';
import { claimRows } from './claim-rows';

describe('claimRows', () => {
  it('sorts claims, shows epoch-second claims as dates and other values as text', () => {
    const rows = claimRows(
      { sub: 'u-1', groups: ['admin'], iat: 1_700_000_000, email_verified: true },
      (date) => date.toISOString(),
    );
    expect(rows).toEqual([
      { name: 'email_verified', value: 'true' },
      { name: 'groups', value: '["admin"]' },
      { name: 'iat', value: '2023-11-14T22:13:20.000Z' },
      { name: 'sub', value: 'u-1' },
    ]);
  });
});
