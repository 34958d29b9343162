import type { z } from 'zod';
import { validationErrorFrom } from './errors';

/** Parses untrusted input with a schema; a failure becomes a 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, context?: string): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationErrorFrom(result.error, context);
  return result.data;
}
