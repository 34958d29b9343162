import { describe, expect, it } from 'vitest';
import { isAutoRetriedError } from './retry-policy';

describe('isAutoRetriedError', () => {
  it('retries on its own only for "map is not a function" errors', () => {
    expect(isAutoRetriedError(new TypeError('rows.map is not a function'))).toBe(true);
    expect(isAutoRetriedError('data.map is not a function')).toBe(true);
    expect(isAutoRetriedError(new Error('Failed to fetch'))).toBe(false);
    expect(isAutoRetriedError({ status: 500 })).toBe(false);
  });
});
