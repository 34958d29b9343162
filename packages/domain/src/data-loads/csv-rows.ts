import { detectDelimiter, type CsvDelimiter } from '../spreadsheet-import/csv';

/**
 * CSV text to rows, chunk by chunk, so a file of millions of rows is never held whole. The same
 * rules as parseCsv (RFC 4180 quoting, `,` `;` or tab told from the header line, a UTF-8 BOM
 * dropped, CRLF, LF or CR ending a row). A row without quotes is split at once; a quoted one is
 * read character by character and may span chunks.
 */
export class CsvRowReader {
  private rest = '';
  private delimiter: CsvDelimiter | null = null;

  /** The rows the text so far completes; the unfinished tail waits for the next chunk. */
  push(chunk: string): string[][] {
    this.rest += chunk;
    return this.drain(false);
  }

  /** The last rows, once the file has ended. */
  end(): string[][] {
    return this.drain(true);
  }

  private drain(final: boolean): string[][] {
    let text = this.rest;
    if (this.delimiter === null) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const firstLine = /[^\r\n]/.exec(text);
      const lineEnd = firstLine ? text.slice(firstLine.index).search(/[\r\n]/) : -1;
      if (lineEnd < 0 && !final) {
        this.rest = text;
        return [];
      }
      this.delimiter = detectDelimiter(text);
    }
    const delimiter = this.delimiter;
    const rows: string[][] = [];
    // The next CR and quote are searched once and reused until passed: a file without them would
    // otherwise be scanned to its end for every row.
    const nextCr = nextOf(text, '\r');
    const nextQuote = nextOf(text, '"');
    let i = 0;
    while (i < text.length) {
      const lf = text.indexOf('\n', i);
      const cr = nextCr(i);
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (end < 0 && !final) break;
      const stop = end < 0 ? text.length : end;
      const quote = nextQuote(i);
      if (quote < 0 || quote >= stop) {
        // A CR at the very end of a chunk may be half of a CRLF: wait for the next chunk.
        if (text[stop] === '\r' && stop === text.length - 1 && !final) break;
        rows.push(text.slice(i, stop).split(delimiter));
        i = stop + (text[stop] === '\r' && text[stop + 1] === '\n' ? 2 : 1);
        continue;
      }
      const record = quotedRecord(text, i, delimiter, final);
      if (!record) break;
      rows.push(record.fields);
      i = record.next;
    }
    this.rest = text.slice(i);
    return rows;
  }
}

/** The position of the next `char` at or after a position, remembered while it lies ahead. */
function nextOf(text: string, char: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found === -1 || found >= from) return found;
    found = text.indexOf(char, from);
    return found;
  };
}

/** One record that holds quotes, from `start`; null when the text ends inside it (more to come). */
function quotedRecord(
  text: string,
  start: number,
  delimiter: string,
  final: boolean,
): { fields: string[]; next: number } | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (i + 1 >= text.length && !final) return null;
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
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && i + 1 >= text.length && !final) return null;
      fields.push(field);
      return { fields, next: i + (char === '\r' && text[i + 1] === '\n' ? 2 : 1) };
    } else field += char;
    i += 1;
  }
  if (!final) return null;
  fields.push(field);
  return { fields, next: text.length };
}
