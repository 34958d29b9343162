import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/**
 * How deep a JSON body may nest. The API's bodies nest a few levels (a batch of records is three);
 * the limit keeps recursive checks and schemas from overflowing the stack on a hostile body.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `limit`, found by counting brackets outside strings, before
 * anything is built from it. Malformed text is left to the parser, which names its own problem.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth -= 1;
  }
  return false;
}

/**
 * Fastify's own JSON parser (prototype poisoning refused) behind a depth check, for every route:
 * a body nested deeper than MAX_JSON_DEPTH is a 400 naming the limit.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        AppError.validation(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`),
        undefined,
      );
      return;
    }
    void parseJson(request, text, done);
  });
}
