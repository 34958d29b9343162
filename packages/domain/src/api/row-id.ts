import { z } from 'zod';

/**
 * A row id given in a path or query (an `integer` or `serial` key): a whole number from 1 to the
 * column's largest value, so an id past it is a 400, never a database error.
 */
export const ZRowId = z.coerce
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .min(1, { error: 'must be 1 or more' })
  .max(2_147_483_647, { error: 'is too large' });
