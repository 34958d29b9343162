import { AppError } from '../../lib/errors';
import type { RecordCursor } from './demand-record.repository';

/** The opaque nextToken: the last key of a page, base64url-encoded. */
export function encodePageToken(cursor: RecordCursor): string {
  return Buffer.from(JSON.stringify([cursor.pid, cursor.weekStart])).toString('base64url');
}

export function decodePageToken(token: string): RecordCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^\d{4}-\d{2}-\d{2}$/.test(value[1])
    ) {
      return { pid: value[0], weekStart: value[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw AppError.validation('nextToken is not a valid page token', 'nextToken');
}
