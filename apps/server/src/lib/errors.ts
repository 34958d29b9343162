import type { DemandRecord } from '@ps/domain';
import type { ZodError } from 'zod';

/** Every failure the API reports on purpose; the HTTP status and message follow from the code. */
export type AppErrorCode =
  'VALIDATION' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'STALE' | 'BUSY' | 'TIMEOUT';

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: { current?: DemandRecord | DemandRecord[]; field?: string },
  ) {
    super(message);
  }

  static validation(message: string, field?: string): AppError {
    return new AppError('VALIDATION', message, field ? { field } : undefined);
  }
  static notFound(message: string): AppError {
    return new AppError('NOT_FOUND', message);
  }
}

export function httpStatusOf(code: AppErrorCode): number {
  switch (code) {
    case 'VALIDATION':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
    case 'STALE':
    case 'BUSY':
      return 409;
    case 'TIMEOUT':
      return 503;
  }
}

/** PostgreSQL's codes for a statement cancelled by statement_timeout and a lock_timeout expired. */
const DATABASE_TIMEOUTS = new Set(['57014', '55P03']);

/**
 * A database limit that stopped a request (DB_STATEMENT_TIMEOUT_MS, DB_LOCK_TIMEOUT_MS): the
 * transaction rolled back and the request may be retried, so it answers 503, not 500.
 */
export function timeoutErrorFrom(error: unknown): AppError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !DATABASE_TIMEOUTS.has(code)) return undefined;
  return new AppError(
    'TIMEOUT',
    'The database took too long or the records were locked by another save; nothing was changed. Try again.',
  );
}

/** Turns the first zod issue into one sentence naming the field, e.g. "limit must be at most 5000". */
export function validationErrorFrom(error: ZodError, context?: string): AppError {
  const issue = error.issues[0];
  if (!issue) return AppError.validation('Invalid request');
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const path = [...issue.path, ...(unknownKey ? [unknownKey] : [])].map(String);
  const field = path.join('.');
  const prefix = context ? `${context}: ` : '';
  return AppError.validation(
    field ? `${prefix}${field} ${issue.message}` : `${prefix}${issue.message}`,
    field || undefined,
  );
}
