import type { Cell } from '@ps/domain';
import { entryChunks, inflateEntry, ZipDamage, type ZipArchive } from './zip-guard';

/**
 * The sheets of an .xlsx read straight from their XML. An import needs cell values only, and
 * reading them with a few regular expressions is several times faster than building a workbook
 * model. Elements are matched by namespace, not by literal tag: the prefix bound to SpreadsheetML
 * on each part's root (none for Excel, `x:` for the .NET OpenXML SDK) is the one looked for. What
 * it honours: shared and inline strings, rich text as its plain text (without phonetic guides),
 * formulas' cached results, booleans, error codes, dates (cells with a date number format, 1900
 * and 1904 systems, and ISO date cells) and merged cells (the value in every cell they cover).
 * A sheet is read in chunks as it inflates (streamSheetRows), so its XML is never held whole.
 */
export type XlsxSheet = { name: string; rows: () => Cell[][] };

const SPREADSHEET_ML = [
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
];

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    found[match[1]!] = decode(match[2] ?? match[3] ?? '');
  return found;
}

/**
 * The prefix (with its colon, or '') a part's root binds to SpreadsheetML; without a declaration,
 * the root element's own prefix.
 */
function mainPrefix(xml: string): string {
  const root = /<(?![?!])([\w.-]+:)?[\w.-]+\b([^>]*)>/.exec(xml);
  if (!root) return '';
  for (const m of (root[2] ?? '').matchAll(/\bxmlns(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    if (SPREADSHEET_ML.includes(m[2] ?? m[3] ?? '')) return m[1] ? `${m[1]}:` : '';
  return root[1] ?? '';
}

const escape = (prefix: string): string => prefix.replace(/[.-]/g, '\\$&');

/** The regular expressions of one part's elements under its prefix. */
function patterns(prefix: string) {
  const p = escape(prefix);
  return {
    row: new RegExp(`<${p}row\\b([^>]*?)(?:\\/>|>([\\s\\S]*?)<\\/${p}row>)`, 'g'),
    rowEnd: `</${prefix}row>`,
    cell: new RegExp(`<${p}c\\b([^>]*?)(?:\\/>|>([\\s\\S]*?)<\\/${p}c>)`, 'g'),
    value: new RegExp(`<${p}v\\b[^>]*>([\\s\\S]*?)<\\/${p}v>`),
    inline: new RegExp(`<${p}is\\b[^>]*>([\\s\\S]*?)<\\/${p}is>`),
    phonetic: new RegExp(`<${p}rPh\\b[\\s\\S]*?<\\/${p}rPh>`, 'g'),
    text: new RegExp(`<${p}t\\b[^>]*?\\/>|<${p}t\\b[^>]*>([\\s\\S]*?)<\\/${p}t>`, 'g'),
    item: new RegExp(`<${p}si\\b[^>]*?\\/>|<${p}si\\b[^>]*>([\\s\\S]*?)<\\/${p}si>`, 'g'),
    itemEnd: `</${prefix}si>`,
    merges: `<${prefix}mergeCells`,
    merge: new RegExp(`<${p}mergeCell\\b([^>]*)>`, 'g'),
  };
}
type Patterns = ReturnType<typeof patterns>;

/** The text of a string item: its <t> runs, without phonetic guides. */
function textOf(xml: string, ns: Patterns): string {
  let text = '';
  for (const m of xml.replace(ns.phonetic, '').matchAll(ns.text)) text += decode(m[1] ?? '');
  return text;
}

/** Whether a number format shows a date or time (its codes outside quotes, brackets and escapes). */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, '');
  return /[dmyhs]/i.test(bare);
}
/** Built-in date and time formats (ECMA-376 §18.8.30). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

function dateStyles(styles: string | undefined): Set<number> {
  const dated = new Set<number>();
  if (!styles) return dated;
  const p = escape(mainPrefix(styles));
  const custom = new Map<number, string>();
  for (const m of styles.matchAll(new RegExp(`<${p}numFmt\\b([^>]*)>`, 'g'))) {
    const a = attributes(m[1]!);
    custom.set(Number(a.numFmtId), a.formatCode ?? '');
  }
  const xfs = new RegExp(`<${p}cellXfs\\b[^>]*>([\\s\\S]*?)<\\/${p}cellXfs>`).exec(styles)?.[1] ?? '';
  let index = 0;
  for (const m of xfs.matchAll(new RegExp(`<${p}xf\\b([^>]*?)(\\/>|>)`, 'g'))) {
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

/** What reading a sheet's cells needs from the rest of the workbook. */
type WorkbookContext = { shared: readonly string[]; dated: Set<number>; epochDays: number };
type Merge = { from: { column: number; row: number }; to: { column: number; row: number }; value: Cell };

function cellValue(open: string, body: string, ns: Patterns, book: WorkbookContext): Cell {
  // Per cell, so the two attributes it needs are read directly rather than all of them.
  const type = /\bt\s*=\s*["'](\w+)["']/.exec(open)?.[1] ?? 'n';
  const raw = body === '' ? undefined : ns.value.exec(body)?.[1];
  switch (type) {
    case 's':
      return raw === undefined ? null : (book.shared[Number(raw)] ?? null);
    case 'inlineStr':
      return textOf(ns.inline.exec(body)?.[1] ?? '', ns);
    case 'str':
    case 'e':
      return raw === undefined ? null : decode(raw);
    case 'b':
      return raw === undefined ? null : raw.trim() === '1' || raw.trim() === 'true';
    case 'd': {
      if (raw === undefined) return null;
      const date = new Date(decode(raw));
      return Number.isNaN(date.getTime()) ? decode(raw) : date;
    }
    case 'n':
    default: {
      if (raw === undefined || raw.trim() === '') return null;
      const number = Number(raw);
      if (!Number.isFinite(number)) return decode(raw);
      const style = /\bs\s*=\s*["'](\d+)["']/.exec(open)?.[1];
      return style !== undefined && book.dated.has(Number(style))
        ? new Date(Math.round((number - book.epochDays) * DAY_MS))
        : number;
    }
  }
}

/**
 * Turns a sheet's XML, fed in pieces of any size, into rows: `onRow` gets each row's cells and
 * its sheet row number, in order, and returns false to stop. Merged ranges (read beforehand, they
 * follow the rows in the XML) put their first cell's value in every cell they cover.
 */
class SheetRowReader {
  private carry = '';
  private rowNumber = 0;
  private stopped = false;
  private readonly mergesByRow = new Map<number, Merge[]>();

  constructor(
    private readonly ns: Patterns,
    private readonly book: WorkbookContext,
    merges: readonly Merge[],
    private readonly onRow: (cells: Cell[], row: number) => boolean | void,
  ) {
    for (const merge of merges)
      for (let row = merge.from.row; row <= merge.to.row; row++) {
        const list = this.mergesByRow.get(row);
        if (list) list.push(merge);
        else this.mergesByRow.set(row, [merge]);
      }
  }

  get done(): boolean {
    return this.stopped;
  }

  feed(text: string): void {
    if (this.stopped) return;
    this.carry += text;
    const end = this.carry.lastIndexOf(this.ns.rowEnd);
    if (end < 0) return;
    const cut = end + this.ns.rowEnd.length;
    const complete = this.carry.slice(0, cut);
    this.carry = this.carry.slice(cut);
    this.readRows(complete);
  }

  end(): void {
    if (!this.stopped) this.readRows(this.carry);
    this.carry = '';
    // Merged ranges below the last written row still cover cells.
    const last = Math.max(0, ...this.mergesByRow.keys());
    while (!this.stopped && this.rowNumber < last) this.emit([], this.rowNumber + 1);
  }

  private readRows(xml: string): void {
    for (const rowMatch of xml.matchAll(this.ns.row)) {
      if (this.stopped) return;
      const r = /\br\s*=\s*["'](\d+)["']/.exec(rowMatch[1]!)?.[1];
      const number = r ? Number(r) : this.rowNumber + 1;
      // Rows the XML leaves out are blank, unless a merged range covers them.
      for (let skipped = this.rowNumber + 1; skipped < number && !this.stopped; skipped++)
        if (this.mergesByRow.has(skipped)) this.emit([], skipped);
      if (this.stopped) return;
      const cells: Cell[] = [];
      let column = 0;
      const body = rowMatch[2] ?? '';
      if (body !== '')
        for (const c of body.matchAll(this.ns.cell)) {
          const ref = /\br\s*=\s*["']([A-Z]+)\d+["']/.exec(c[1]!)?.[1];
          column = ref ? position(ref).column : column + 1;
          while (cells.length < column - 1) cells.push(null);
          cells[column - 1] = cellValue(c[1]!, c[2] ?? '', this.ns, this.book);
        }
      this.emit(cells, Math.max(number, this.rowNumber + 1));
    }
  }

  private emit(cells: Cell[], row: number): void {
    this.rowNumber = row;
    for (const merge of this.mergesByRow.get(row) ?? []) {
      if (row === merge.from.row) merge.value = cells[merge.from.column - 1] ?? null;
      while (cells.length < merge.to.column) cells.push(null);
      for (let column = merge.from.column; column <= merge.to.column; column++)
        cells[column - 1] = merge.value;
    }
    if (this.onRow(cells, row) === false) this.stopped = true;
  }
}

function mergesOf(xml: string, ns: Patterns): Merge[] {
  const merges: Merge[] = [];
  for (const m of xml.matchAll(ns.merge)) {
    const ref = attributes(m[1]!).ref?.split(':');
    if (!ref || ref.length !== 2 || !/^[A-Z]+\d+$/.test(ref[0]!) || !/^[A-Z]+\d+$/.test(ref[1]!)) continue;
    merges.push({ from: position(ref[0]!), to: position(ref[1]!), value: null });
  }
  return merges;
}

/** The workbook's sheets (name and part), in order, and what reading their cells needs. */
type WorkbookMap = { sheets: Array<{ name: string; path: string }>; epochDays: number };

function workbookMap(workbook: string, relationships: string): WorkbookMap {
  const epochDays = /date1904\s*=\s*["'](1|true)["']/.test(workbook) ? 24107 : 25569;
  const targets = new Map<string, string>();
  for (const m of relationships.matchAll(/<(?:[\w.-]+:)?Relationship\b([^>]*)>/g)) {
    const a = attributes(m[1]!);
    if (a.Id && a.Target)
      targets.set(a.Id, a.Target.startsWith('/') ? a.Target.slice(1) : `xl/${a.Target.replace(/^\.\//, '')}`);
  }
  const p = escape(mainPrefix(workbook));
  const sheets: WorkbookMap['sheets'] = [];
  for (const m of workbook.matchAll(new RegExp(`<${p}sheet\\b([^>]*?)\\/?>`, 'g'))) {
    const a = attributes(m[1]!);
    // The relationship id is the sheet's one prefixed `id` attribute (r:id in Excel's files).
    const id = Object.entries(a).find(([key]) => /^[\w.-]+:id$/.test(key))?.[1];
    const path = id ? targets.get(id) : undefined;
    if (a.name !== undefined && path) sheets.push({ name: a.name, path });
  }
  return { sheets, epochDays };
}

/** The shared strings of a whole part. */
function sharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  const ns = patterns(mainPrefix(xml));
  return [...xml.matchAll(ns.item)].map((m) => textOf(m[1] ?? '', ns));
}

/** Reads sheets from parts already inflated in memory (small workbooks, tests, other readers). */
export function xlsxSheets(parts: Map<string, Buffer>): XlsxSheet[] {
  const text = (name: string) => parts.get(name)?.toString('utf8');
  const map = workbookMap(text('xl/workbook.xml') ?? '', text('xl/_rels/workbook.xml.rels') ?? '');
  const book: WorkbookContext = {
    shared: sharedStrings(text('xl/sharedStrings.xml')),
    dated: dateStyles(text('xl/styles.xml')),
    epochDays: map.epochDays,
  };
  const sheets: XlsxSheet[] = [];
  for (const { name, path } of map.sheets) {
    const xml = text(path);
    if (xml === undefined) continue;
    let rows: Cell[][] | undefined;
    const read = (): Cell[][] => {
      const ns = patterns(mainPrefix(xml));
      const found: Cell[][] = [];
      const reader = new SheetRowReader(ns, book, mergesOf(xml, ns), (cells, row) => {
        while (found.length < row - 1) found.push([]);
        found[row - 1] = cells;
      });
      reader.feed(xml);
      reader.end();
      return found;
    };
    sheets.push({ name, rows: () => (rows ??= read()) });
  }
  return sheets;
}

/** A part's text in pieces as it inflates (UTF-8, or UTF-16 with its byte order mark). */
async function* partText(archive: ZipArchive, path: string): AsyncGenerator<string> {
  const entry = archive.entries.get(path);
  if (!entry) return;
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  for await (const chunk of entryChunks(archive, entry)) {
    decoder ??= new TextDecoder(chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf-16le' : 'utf-8');
    const text = decoder.decode(chunk, { stream: true });
    if (text !== '') yield text;
  }
  const rest = decoder?.decode() ?? '';
  if (rest !== '') yield rest;
}

/** The shared strings, read item by item as the part inflates. */
async function streamSharedStrings(archive: ZipArchive): Promise<string[]> {
  const strings: string[] = [];
  let ns: Patterns | undefined;
  let carry = '';
  for await (const text of partText(archive, 'xl/sharedStrings.xml')) {
    carry += text;
    ns ??= patterns(mainPrefix(carry));
    const end = carry.lastIndexOf(ns.itemEnd);
    // Self-closing empty items after the last full one wait for the next piece.
    if (end < 0) continue;
    const cut = end + ns.itemEnd.length;
    for (const m of carry.slice(0, cut).matchAll(ns.item)) strings.push(textOf(m[1] ?? '', ns));
    carry = carry.slice(cut);
  }
  if (ns) for (const m of carry.matchAll(ns.item)) strings.push(textOf(m[1] ?? '', ns));
  return strings;
}

export type StreamedWorkbook = {
  sheetNames: string[];
  /**
   * Streams one sheet's rows into `onRow` (false stops it). Merged ranges sit after the rows in
   * the XML, so a sheet with merges is inflated twice: once for them, once for the rows.
   */
  readRows: (
    sheet: number,
    onRow: (cells: Cell[], row: number) => boolean | void,
    /** false skips the merged ranges' pass (a look at the first rows). */
    withMerges?: boolean,
  ) => Promise<void>;
};

/**
 * Opens a checked archive's workbook for streaming: its small parts (workbook, relationships,
 * styles) whole, its shared strings item by item, its sheets only when read. Returns a problem
 * for the user when a part is damaged or the workbook names no sheet.
 */
export async function openXlsxWorkbook(archive: ZipArchive): Promise<StreamedWorkbook | { problem: string }> {
  const small = (path: string): string | undefined | { problem: string } => {
    const entry = archive.entries.get(path);
    if (!entry) return undefined;
    const bytes = inflateEntry(archive, entry);
    return 'problem' in bytes ? bytes : bytes.toString('utf8');
  };
  const workbook = small('xl/workbook.xml');
  const relationships = small('xl/_rels/workbook.xml.rels');
  const styles = small('xl/styles.xml');
  for (const part of [workbook, relationships, styles]) if (typeof part === 'object') return part;
  const map = workbookMap(
    (workbook as string | undefined) ?? '',
    (relationships as string | undefined) ?? '',
  );
  const sheets = map.sheets.filter((sheet) => archive.entries.has(sheet.path));
  if (sheets.length === 0)
    return { problem: 'The file is not a valid .xlsx workbook: Excel could not read its contents' };
  let shared: string[];
  try {
    shared = await streamSharedStrings(archive);
  } catch (error) {
    if (error instanceof ZipDamage) return { problem: error.message };
    throw error;
  }
  const book: WorkbookContext = {
    shared,
    dated: dateStyles(styles as string | undefined),
    epochDays: map.epochDays,
  };

  const readRows: StreamedWorkbook['readRows'] = async (index, onRow, withMerges = true) => {
    const path = sheets[index]!.path;
    let ns: Patterns | undefined;
    // First pass: only the merged ranges after the rows, found without reading the rows.
    let tail = '';
    let mergeXml: string | undefined;
    if (withMerges)
      for await (const text of partText(archive, path)) {
        if (mergeXml !== undefined) {
          mergeXml += text;
          continue;
        }
        const window = tail + text;
        ns ??= patterns(mainPrefix(window));
        const at = window.indexOf(ns.merges);
        if (at >= 0) mergeXml = window.slice(at);
        else tail = window.slice(-ns.merges.length);
      }
    let reader: SheetRowReader | undefined;
    for await (const text of partText(archive, path)) {
      ns ??= patterns(mainPrefix(text));
      reader ??= new SheetRowReader(ns, book, mergeXml ? mergesOf(mergeXml, ns) : [], onRow);
      reader.feed(text);
      if (reader.done) return;
    }
    reader?.end();
  };
  return { sheetNames: sheets.map((s) => s.name), readRows };
}
