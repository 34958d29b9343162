import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseTimeSeriesSk } from '@ps/domain';
import { AppError } from '../../lib/errors';
import type { RecordCursor } from './demand-record.repository';

/** Name of the MAC key in app_secrets (db/app-secrets.ts), shared by every server process. */
export const PAGE_TOKEN_SECRET = 'page-token-mac';

const invalidToken = (): AppError => AppError.validation('nextToken is not a valid page token', 'nextToken');

/**
 * The opaque nextToken: the last key of a page with an HMAC, `payload.mac` in base64url. Only
 * tokens this server issued are accepted, so a forged cursor (an impossible date, another shape)
 * never reaches the query.
 */
export class PageTokens {
  constructor(private readonly key: Buffer) {}

  encode(cursor: RecordCursor): string {
    const payload = Buffer.from(JSON.stringify([cursor.pid, cursor.weekStart])).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  decode(token: string): RecordCursor {
    const [payload, mac, ...rest] = token.split('.');
    if (!payload || !mac || rest.length > 0) throw invalidToken();
    const expected = this.mac(payload);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidToken();
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (
      !Array.isArray(value) ||
      typeof value[0] !== 'string' ||
      typeof value[1] !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(value[1]) ||
      parseTimeSeriesSk(value[1].replaceAll('-', '')) === null
    ) {
      throw invalidToken();
    }
    return { pid: value[0], weekStart: value[1] };
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(`nextToken:${payload}`).digest().subarray(0, 16);
  }
}
