import { describe, expect, it } from 'vitest';
import { httpStatusOf, timeoutErrorFrom } from './errors';

describe('timeoutErrorFrom', () => {
  it('turns a database timeout, lock wait, deadlock or serialization failure into a retryable 503', () => {
    for (const code of ['57014', '55P03', '40P01', '40001']) {
      const known = timeoutErrorFrom(Object.assign(new Error('database error'), { code }));
      expect(known?.code, code).toBe('TIMEOUT');
      expect(httpStatusOf(known!.code)).toBe(503);
      expect(known!.message).toContain('nothing was changed');
    }
  });

  it('leaves other database errors and plain errors alone', () => {
    expect(timeoutErrorFrom(Object.assign(new Error('unique violation'), { code: '23505' }))).toBeUndefined();
    expect(timeoutErrorFrom(new Error('boom'))).toBeUndefined();
    expect(timeoutErrorFrom(null)).toBeUndefined();
  });
});
