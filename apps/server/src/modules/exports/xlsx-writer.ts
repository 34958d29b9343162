import type { Writable } from 'node:stream';
import { ZipWriter } from './zip-writer';

/**
 * An .xlsx workbook of large tables written as plain SpreadsheetML (ECMA-376 part 1) into a
 * streaming ZIP: rows become XML text page by page, with inline strings (no shared-string table
 * to hold) and no row or cell objects, so memory does not grow with the rows. Styles are
 * collected while the rows are written and the styles part is written after the sheets (the
 * order of parts in the archive carries no meaning).
 */

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Rows per sheet in Excel; a longer table continues on "Name (2)" with its header repeated. */
export const EXCEL_MAX_ROWS = 1_048_576;
/** Characters of sheet XML handed to the zip at a time. */
const CHUNK_CHARS = 32_768;

export type XlsxValue = string | number | Date | null;

export type CellStyle = { numFmt?: string; bold?: boolean; fill?: string };

export type XlsxTable = {
  name: string;
  columns: ReadonlyArray<{ header: string; width: number }>;
  headerStyle: number;
  /** The style index of a cell (0 = none), from its column and value. */
  styleOf: (column: number, value: string | number) => number;
};

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Anything xmlText changes; most cells have none, and are written after this one test. */
const NEEDS_ESCAPE =
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these control characters: finding them is the point
  /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]|_x[0-9A-Fa-f]{4}_/;
/** Characters XML 1.0 cannot hold: control characters but tab and line ends, lone surrogates, U+FFFE/F. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these control characters: finding them is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as XML character data. Characters XML 1.0 cannot hold (control characters, lone
 * surrogates) are written the way Excel reads them, _xHHHH_, and a literal "_x0041_" is
 * protected by escaping its underscore (_x005F_).
 */
export function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  let out = text.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!);
  if (/_x[0-9A-Fa-f]{4}_/.test(out)) out = out.replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1');
  return out.replace(NOT_XML, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

/** Column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** Days since 1899-12-30, Excel's date serial (UTC). */
const excelSerial = (date: Date): number => date.getTime() / 86_400_000 + 25_569;

/** Number formats Excel has built in, by code; everything else gets an id from 164. */
const BUILT_IN_FORMATS: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '#,##0': 3, '@': 49 };

class StyleSheet {
  private readonly formats = new Map<string, number>();
  private readonly fills = ['none', 'gray125'];
  private readonly xfs: string[] = ['0|0|0'];
  private readonly xfIndex = new Map<string, number>([['0|0|0', 0]]);

  indexOf(style: CellStyle): number {
    let formatId = 0;
    if (style.numFmt !== undefined) {
      formatId = BUILT_IN_FORMATS[style.numFmt] ?? this.formats.get(style.numFmt) ?? 164 + this.formats.size;
      if (formatId >= 164) this.formats.set(style.numFmt, formatId);
    }
    let fillId = 0;
    if (style.fill !== undefined) {
      fillId = this.fills.indexOf(style.fill);
      if (fillId < 0) fillId = this.fills.push(style.fill) - 1;
    }
    const key = `${formatId}|${style.bold ? 1 : 0}|${fillId}`;
    let index = this.xfIndex.get(key);
    if (index === undefined) {
      index = this.xfs.push(key) - 1;
      this.xfIndex.set(key, index);
    }
    return index;
  }

  xml(): string {
    const numFmts = [...this.formats]
      .map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`)
      .join('');
    const fills = this.fills
      .map((fill) =>
        fill === 'none' || fill === 'gray125'
          ? `<fill><patternFill patternType="${fill}"/></fill>`
          : `<fill><patternFill patternType="solid"><fgColor rgb="${fill}"/><bgColor indexed="64"/></patternFill></fill>`,
      )
      .join('');
    const xfs = this.xfs
      .map((key) => {
        const [formatId, bold, fillId] = key.split('|');
        return (
          `<xf numFmtId="${formatId}" fontId="${bold}" fillId="${fillId}" borderId="0" xfId="0"` +
          `${formatId === '0' ? '' : ' applyNumberFormat="1"'}${bold === '1' ? ' applyFont="1"' : ''}` +
          `${fillId === '0' ? '' : ' applyFill="1"'}/>`
        );
      })
      .join('');
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      (this.formats.size ? `<numFmts count="${this.formats.size}">${numFmts}</numFmts>` : '') +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
      '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
      `<fills count="${this.fills.length}">${fills}</fills>` +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length}">${xfs}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>'
    );
  }
}

/** Pages of rows handed out a few at a time, so a page can end one sheet and start the next. */
class RowSource<Row> {
  private buffer: Row[] = [];
  private start = 0;
  private done = false;

  constructor(private readonly pages: AsyncIterator<Row[]>) {}

  async hasMore(): Promise<boolean> {
    while (this.start >= this.buffer.length && !this.done) {
      const next = await this.pages.next();
      if (next.done) this.done = true;
      else {
        this.buffer = next.value;
        this.start = 0;
      }
    }
    return this.start < this.buffer.length;
  }

  async take(max: number): Promise<Row[]> {
    if (!(await this.hasMore())) return [];
    const rows = this.buffer.slice(this.start, this.start + max);
    this.start += rows.length;
    return rows;
  }
}

export class XlsxStreamWriter {
  private readonly zip: ZipWriter;
  private readonly styles = new StyleSheet();
  private readonly sheetNames: string[] = [];

  constructor(
    out: Writable,
    private readonly now = new Date(),
    private readonly maxRows = EXCEL_MAX_ROWS,
  ) {
    this.zip = new ZipWriter(out, now);
  }

  /** The style index for cells of this look, registered on first use. */
  style(style: CellStyle): number {
    return this.styles.indexOf(style);
  }

  /**
   * Writes a table: header on row 1, frozen; rows as the pages come. Past Excel's row limit the
   * table continues on another sheet. Returns the number of rows written (headers not counted).
   */
  async writeTable(table: XlsxTable, pages: AsyncIterable<ReadonlyArray<XlsxValue>[]>): Promise<number> {
    const source = new RowSource(pages[Symbol.asyncIterator]());
    const letters = table.columns.map((_, i) => columnLetters(i));
    let written = 0;
    for (let part = 1; part === 1 || (await source.hasMore()); part += 1) {
      this.sheetNames.push(part === 1 ? table.name : `${table.name} (${part})`);
      await this.zip.addStream(
        `xl/worksheets/sheet${this.sheetNames.length}.xml`,
        this.sheetXml(table, letters, source, (n) => (written += n)),
      );
    }
    return written;
  }

  private async *sheetXml(
    table: XlsxTable,
    letters: string[],
    source: RowSource<ReadonlyArray<XlsxValue>>,
    count: (rows: number) => void,
  ): AsyncGenerator<string> {
    const cols = table.columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`)
      .join('');
    const header = table.columns
      .map(
        (c, i) =>
          `<c r="${letters[i]}1" s="${table.headerStyle}" t="inlineStr"><is><t>${xmlText(c.header)}</t></is></c>`,
      )
      .join('');
    yield (
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0">' +
      '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1">${header}</row>`
    );
    let rowNumber = 1;
    while (rowNumber < this.maxRows) {
      const rows = await source.take(this.maxRows - rowNumber);
      if (rows.length === 0) break;
      let xml = '';
      for (const row of rows) {
        rowNumber += 1;
        xml += `<row r="${rowNumber}">`;
        for (let i = 0; i < row.length; i += 1) {
          const value = row[i];
          if (value === null || value === undefined) continue;
          const ref = `${letters[i]}${rowNumber}`;
          if (typeof value === 'string') {
            const style = table.styleOf(i, value);
            const space = /^\s|\s$|\n/.test(value) ? ' xml:space="preserve"' : '';
            xml += `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t${space}>${xmlText(value)}</t></is></c>`;
          } else {
            const number = value instanceof Date ? excelSerial(value) : value;
            if (!Number.isFinite(number)) continue;
            const style = table.styleOf(i, number);
            xml += `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${number}</v></c>`;
          }
        }
        xml += '</row>';
        // Handed on in small pieces: short strings die young, where collecting them is cheap,
        // instead of piling up as megabyte strings until a full collection.
        if (xml.length >= CHUNK_CHARS) {
          yield xml;
          xml = '';
        }
      }
      count(rows.length);
      if (xml) yield xml;
    }
    yield '</sheetData></worksheet>';
  }

  /** Styles, workbook, relationships and content types: the archive is complete after this. */
  async finish(creator: string): Promise<void> {
    const sheets = this.sheetNames;
    await this.zip.add('xl/styles.xml', this.styles.xml());
    await this.zip.add(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>` +
        sheets
          .map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join('') +
        '</sheets></workbook>',
    );
    await this.zip.add(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        sheets
          .map(
            (_, i) =>
              `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
          )
          .join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    );
    await this.zip.add(
      'docProps/core.xml',
      `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
        `<dc:creator>${xmlText(creator)}</dc:creator>` +
        `<dcterms:created xsi:type="dcterms:W3CDTF">${this.now.toISOString().slice(0, 19)}Z</dcterms:created>` +
        '</cp:coreProperties>',
    );
    await this.zip.add(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
        '</Relationships>',
    );
    const sheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
    await this.zip.add(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        sheets
          .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${sheetType}"/>`)
          .join('') +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
        '</Types>',
    );
    await this.zip.finish();
  }
}
