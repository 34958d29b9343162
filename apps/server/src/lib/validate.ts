import type { z } from 'zod';
import { AppError, validationErrorFrom } from './errors';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first text in the input that PostgreSQL cannot store as given, with its path: a NUL
 * character (text columns refuse it, so it would fail mid-query) or a lone UTF-16 surrogate
 * (the driver would silently turn it into U+FFFD). Keys are checked as well as values.
 */
function firstUnstorableText(value: unknown, path: string[] = []): string[] | null {
  const isBad = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);
  if (typeof value === 'string') return isBad(value) ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (isBad(key)) return [...path, '<name>'];
    const found = firstUnstorableText(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Parses untrusted input with a schema; a failure becomes a 400 naming the field. Text that the
 * database cannot hold is refused here for every route, before any schema sees it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, context?: string): z.infer<S> {
  const badText = firstUnstorableText(input);
  if (badText) {
    const field = badText.join('.');
    const prefix = context ? `${context}: ` : '';
    throw AppError.validation(
      `${prefix}${field || 'the input'} must not hold a NUL character or an unpaired surrogate`,
      field || undefined,
    );
  }
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationErrorFrom(result.error, context);
  return result.data;
}
