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
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delimiter = detectDelimiter(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = (): void => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  while (i < text.length) {
    const char = text[i];
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += char;
      i += 1;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      endRow();
      if (rows.length > maxRows) return rows;
      if (char === '\r' && text[i + 1] === '\n') i += 1;
    } else field += char;
    i += 1;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}
