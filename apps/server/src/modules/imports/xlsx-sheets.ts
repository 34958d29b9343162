import type { Cell } from '@ps/domain';

/**
 * The sheets of an .xlsx read straight from its XML parts (already inflated and size-checked by
 * zip-guard). An import needs cell values only, and reading them with a few regular expressions is
 * several times faster than building exceljs's workbook model (100,000 rows: about 1 s of CPU
 * instead of 5). What it honours is what exceljs gave the importer: shared and inline strings,
 * rich text as its plain text, formulas' cached results, booleans, error codes, dates (cells with
 * a date number format, 1900 and 1904 systems, and ISO date cells) and merged cells (the value in
 * every cell they cover).
 */
export type XlsxSheet = { name: string; rows: () => Cell[][] };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    return ENTITIES[name] ?? whole;
  });
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:]+)\s*=\s*"([^"]*)"/g)) found[match[1]!] = decode(match[2]!);
  return found;
}

/** The text of a string item: its <t> runs, without phonetic guides. */
const textOf = (xml: string): string =>
  [...xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '').matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>|<t\b[^>]*\/>/g)]
    .map((m) => decode(m[1] ?? ''))
    .join('');

/** Whether a number format shows a date or time (its codes outside quotes, brackets and escapes). */
function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, '');
  return /[dmyhs]/i.test(bare);
}
/** Built-in date and time formats (ECMA-376 §18.8.30). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

function dateStyles(styles: string | undefined): Set<number> {
  const dated = new Set<number>();
  if (!styles) return dated;
  const custom = new Map<number, string>();
  for (const m of styles.matchAll(/<numFmt\b([^>]*)\/?>/g)) {
    const a = attributes(m[1]!);
    custom.set(Number(a.numFmtId), a.formatCode ?? '');
  }
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  let index = 0;
  for (const m of xfs.matchAll(/<xf\b([^>]*?)(\/>|>)/g)) {
    const id = Number(attributes(m[1]!).numFmtId ?? 0);
    const code = custom.get(id);
    if (code !== undefined ? isDateFormat(code) : BUILT_IN_DATES.has(id)) dated.add(index);
    index += 1;
  }
  return dated;
}

/** "BC12" → column 55 and row 12 (both from 1). */
function position(ref: string): { column: number; row: number } {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + code - 64;
  }
  return { column, row: Number(ref.slice(i)) };
}

const DAY_MS = 86_400_000;

export function xlsxSheets(parts: Map<string, Buffer>): XlsxSheet[] {
  const text = (name: string) => parts.get(name)?.toString('utf8');
  const workbook = text('xl/workbook.xml') ?? '';
  const epochDays = /date1904\s*=\s*"(1|true)"/.test(workbook) ? 24107 : 25569;
  const targets = new Map<string, string>();
  for (const m of (text('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\b([^>]*)>/g)) {
    const a = attributes(m[1]!);
    if (a.Id && a.Target)
      targets.set(a.Id, a.Target.startsWith('/') ? a.Target.slice(1) : `xl/${a.Target.replace(/^\.\//, '')}`);
  }
  const shared = [...(text('xl/sharedStrings.xml') ?? '').matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)].map((m) =>
    textOf(m[1] ?? ''),
  );
  const dated = dateStyles(text('xl/styles.xml'));

  const cellValue = (open: string, body: string): Cell => {
    // Per cell, so the two attributes it needs are read directly rather than all of them.
    const type = /\bt="(\w+)"/.exec(open)?.[1] ?? 'n';
    const style = /\bs="(\d+)"/.exec(open)?.[1];
    const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
    switch (type) {
      case 's':
        return raw === undefined ? null : (shared[Number(raw)] ?? null);
      case 'inlineStr':
        return textOf(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '');
      case 'str':
        return raw === undefined ? null : decode(raw);
      case 'b':
        return raw === undefined ? null : raw === '1' || raw === 'true';
      case 'e':
        return raw === undefined ? null : decode(raw);
      case 'd':
        return raw === undefined ? null : new Date(decode(raw));
      case 'n':
      default: {
        if (raw === undefined || raw === '') return null;
        const number = Number(raw);
        if (!Number.isFinite(number)) return decode(raw);
        return style !== undefined && dated.has(Number(style))
          ? new Date(Math.round((number - epochDays) * DAY_MS))
          : number;
      }
    }
  };

  const readRows = (xml: string): Cell[][] => {
    const rows: Cell[][] = [];
    let rowNumber = 0;
    for (const rowMatch of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
      const r = /\br="(\d+)"/.exec(rowMatch[1]!)?.[1];
      rowNumber = r ? Number(r) : rowNumber + 1;
      const cells: Cell[] = [];
      let column = 0;
      for (const c of (rowMatch[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const ref = /\br="([A-Z]+\d+)"/.exec(c[1]!)?.[1];
        column = ref ? position(ref).column : column + 1;
        while (cells.length < column - 1) cells.push(null);
        cells[column - 1] = cellValue(c[1]!, c[2] ?? '');
      }
      while (rows.length < rowNumber - 1) rows.push([]);
      rows[rowNumber - 1] = cells;
    }
    for (const m of xml.matchAll(/<mergeCell\b[^>]*\bref="([A-Z]+\d+):([A-Z]+\d+)"/g)) {
      const from = position(m[1]!);
      const to = position(m[2]!);
      const value = rows[from.row - 1]?.[from.column - 1] ?? null;
      for (let row = from.row; row <= to.row; row++) {
        const cells = (rows[row - 1] ??= []);
        for (let column = from.column; column <= to.column; column++) {
          while (cells.length < column) cells.push(null);
          cells[column - 1] = value;
        }
      }
    }
    for (let i = 0; i < rows.length; i++) rows[i] ??= [];
    return rows;
  };

  const sheets: XlsxSheet[] = [];
  for (const m of workbook.matchAll(/<sheet\b([^>]*?)\/?>/g)) {
    const a = attributes(m[1]!);
    const path = targets.get(a['r:id'] ?? '');
    const xml = path ? text(path) : undefined;
    if (a.name === undefined || xml === undefined) continue;
    let rows: Cell[][] | undefined;
    sheets.push({ name: a.name, rows: () => (rows ??= readRows(xml)) });
  }
  return sheets;
}
