/**
 * CSV to rows of text (RFC 4180 quoting). Excel writes `;` instead of `,` where the decimal
 * separator is a comma, and a UTF-8 BOM when it saves "CSV UTF-8"; both are handled here.
 */

const DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

/** The delimiter that occurs most often outside quotes on the first non-empty line (the header). */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text.replace(/^[\r\n]+/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char as CsvDelimiter))
      counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1);
  }
  let best: CsvDelimiter = ',';
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/**
 * Parses CSV text into rows of fields. Quoted fields may hold delimiters, doubled quotes and line
 * breaks; CRLF, LF and CR all end a row. `maxRows` stops early (a limit is checked before the whole
 * file is split).
 */
export function parseCsv(input: string, maxRows = Number.POSITIVE_INFINITY): string[][] {
  const rows: string[][] = [];
  for (const row of csvRows(input)) {
    rows.push(row);
    if (rows.length > maxRows) break;
  }
  return rows;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * parseCsv one row at a time, so a reader can validate rows as they come. Fields are slices of
 * the text rather than strings grown a character at a time: a long note costs its characters, not
 * a chain of hundreds of partial strings.
 */
export function* csvRows(input: string): Generator<string[]> {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delimiter = detectDelimiter(text).charCodeAt(0);
  const n = text.length;
  const fieldEnd = (from: number): number => {
    let at = from;
    for (; at < n; at++) {
      const code = text.charCodeAt(at);
      if (code === delimiter || code === LF || code === CR) break;
    }
    return at;
  };
  let row: string[] = [];
  let i = 0;
  while (i < n) {
    let field: string;
    if (text.charCodeAt(i) === QUOTE) {
      // A quoted field, its doubled quotes made single; anything after its closing quote is kept.
      let quoted = '';
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) {
          quoted += text.slice(from);
          i = n;
          break;
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          quoted += text.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        quoted += text.slice(from, quote);
        i = quote + 1;
        break;
      }
      const end = fieldEnd(i);
      field = end > i ? quoted + text.slice(i, end) : quoted;
      i = end;
    } else {
      const end = fieldEnd(i);
      field = text.slice(i, end);
      i = end;
    }
    row.push(field);
    if (i >= n) break;
    const code = text.charCodeAt(i);
    if (code === delimiter) {
      i += 1;
      if (i >= n) row.push('');
      continue;
    }
    yield row;
    row = [];
    i += code === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
  }
  if (row.length > 0) yield row;
}
