import type { DemandRecord } from '@ps/domain';
import type { ZodError } from 'zod';

/** Every failure the API reports on purpose; the HTTP status and message follow from the code. */
export type AppErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'STALE'
  | 'BUSY'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE';

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
  /** A refusal for too many requests; the answer's Retry-After says when to try again. */
  static rateLimited(message: string, retryAfterSeconds: number): AppError {
    const error = new AppError('RATE_LIMITED', message);
    error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return error;
  }
  /** Seconds until a rate-limited request may be tried again (the Retry-After header). */
  retryAfterSeconds?: number;
}

/** Retry-After of a rate-limited answer that does not know its window: one minute. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

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
    case 'TOO_LARGE':
      return 413;
    case 'RATE_LIMITED':
      return 429;
    case 'TIMEOUT':
    case 'UNAVAILABLE':
      return 503;
  }
}

/**
 * PostgreSQL's codes for a statement cancelled by statement_timeout, a lock_timeout expired, and a
 * transaction chosen as a deadlock's victim or failing serialization (two writers of the same
 * slice totals in opposite order, e.g. a multi-statement import beside a save).
 */
const DATABASE_TIMEOUTS = new Set(['57014', '55P03', '40P01', '40001']);

/**
 * A database limit or conflict that stopped a request (DB_STATEMENT_TIMEOUT_MS,
 * DB_LOCK_TIMEOUT_MS, a deadlock): the transaction rolled back and the request may be retried, so
 * it answers 503, not 500.
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

/** An error answer: status, envelope code and a message that never repeats the request back. */
export type ErrorAnswer = { status: number; code: string; message: string };

const INVALID_JSON: ErrorAnswer = {
  status: 400,
  code: 'VALIDATION',
  message: 'The request body is not valid JSON',
};
const MALFORMED: ErrorAnswer = { status: 400, code: 'VALIDATION', message: 'The request is malformed' };

/**
 * Errors Fastify and Node's HTTP parser raise for malformed requests, by code, with clear
 * messages (theirs quote the URL or the body).
 */
const FRAMEWORK_ERRORS: Record<string, ErrorAnswer> = {
  FST_ERR_CTP_INVALID_JSON_BODY: INVALID_JSON,
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'VALIDATION',
    message: 'The request body is empty although its content type is JSON',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type: send the body as application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is too large',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'VALIDATION',
    message: 'The request body does not match its Content-Length',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'VALIDATION', message: 'The URL holds an invalid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', message: 'The URL is too long' },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The URL or the request headers are too long',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'TIMEOUT', message: 'The request took too long to arrive' },
};

/**
 * The answer to an error raised for a malformed request (by Fastify, its JSON parser or Node's
 * HTTP parser), or null when the error is not the client's (a server fault).
 */
export function frameworkErrorAnswer(error: {
  code?: string;
  statusCode?: number;
  name?: string;
}): ErrorAnswer | null {
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return known;
  if (error.code?.startsWith('HPE_')) return MALFORMED;
  const status = error.statusCode;
  if (!status || status < 400 || status >= 500) return null;
  // JSON syntax and prototype-poisoning errors from the body parser carry no code.
  if (error.name === 'SyntaxError') return INVALID_JSON;
  return { ...MALFORMED, status };
}
