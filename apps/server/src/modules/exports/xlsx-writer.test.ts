import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxStreamWriter, columnLetters, xmlText, type XlsxValue } from './xlsx-writer';
import { DownloadClosedError } from './zip-writer';

/** Everything written to a stream, as one buffer. */
function collect(): { out: PassThrough; bytes: Promise<Buffer> } {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { out, bytes: new Promise((resolve) => out.on('end', () => resolve(Buffer.concat(chunks)))) };
}

async function* pagesOf(rows: XlsxValue[][], size: number) {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

describe('streamed .xlsx', () => {
  it('writes a table Excel readers load: header frozen, numbers as numbers with their formats, inline text', async () => {
    const { out, bytes } = collect();
    const book = new XlsxStreamWriter(out, new Date('2026-11-23T10:00:00Z'));
    const money = book.style({ numFmt: '"₹"#,##0.00' });
    const rows: XlsxValue[][] = [
      ['PRD-1', 1234.5, null, new Date('2026-11-22T00:00:00Z')],
      [' <two> & "three" ', -0.25, 'x', null],
    ];
    const written = await book.writeTable(
      {
        name: 'Demand Plan',
        columns: ['PID', 'Revenue', 'Note', 'Day'].map((header) => ({ header, width: 12 })),
        headerStyle: book.style({ bold: true, fill: 'FFE2E8F0', numFmt: '@' }),
        styleOf: (column) => (column === 1 ? money : 0),
      },
      pagesOf(rows, 1),
    );
    await book.finish('Planning Suite');
    out.end();
    expect(written).toBe(2);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytes) as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Demand Plan');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).value).toBe('PRD-1');
    expect(sheet.getRow(2).getCell(2).value).toBe(1234.5);
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('"₹"#,##0.00');
    expect(sheet.getRow(2).getCell(3).value).toBeNull();
    // A date is its serial number: 2026-11-22 is day 46,348 after 1899-12-30.
    expect(sheet.getRow(2).getCell(4).value).toBe(46_348);
    expect(sheet.getRow(3).getCell(1).value).toBe(' <two> & "three" ');
    expect(sheet.getRow(3).getCell(2).value).toBe(-0.25);
    expect(workbook.creator).toBe('Planning Suite');
  });

  it("continues past Excel's row limit on another sheet, the header repeated", async () => {
    const { out, bytes } = collect();
    const book = new XlsxStreamWriter(out, new Date(), 4);
    const rows = Array.from({ length: 7 }, (_, i): XlsxValue[] => [`R${i + 1}`, i + 1]);
    const written = await book.writeTable(
      {
        name: 'Demand Plan',
        columns: [
          { header: 'PID', width: 10 },
          { header: 'Units', width: 10 },
        ],
        headerStyle: 0,
        styleOf: () => 0,
      },
      pagesOf(rows, 2),
    );
    await book.finish('Planning Suite');
    out.end();
    expect(written).toBe(7);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytes) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual([
      'Demand Plan',
      'Demand Plan (2)',
      'Demand Plan (3)',
    ]);
    const read = workbook.worksheets.map((s) => {
      const values: unknown[][] = [];
      s.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
      return values;
    });
    expect(read[0]).toEqual([
      ['PID', 'Units'],
      ['R1', 1],
      ['R2', 2],
      ['R3', 3],
    ]);
    expect(read[1]).toEqual([
      ['PID', 'Units'],
      ['R4', 4],
      ['R5', 5],
      ['R6', 6],
    ]);
    expect(read[2]).toEqual([
      ['PID', 'Units'],
      ['R7', 7],
    ]);
  });

  it('stops reading pages when the download is closed', async () => {
    // A reader that takes 64 KiB and then goes away.
    let received = 0;
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > 65_536) this.destroy();
        else setImmediate(callback);
      },
    });
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        // Random text does not compress, so the archive grows as fast as the sheet.
        yield Array.from({ length: 100 }, (): XlsxValue[] => [Math.random().toString(36).repeat(4)]);
      }
    }
    const book = new XlsxStreamWriter(out);
    await expect(
      book.writeTable(
        { name: 'S', columns: [{ header: 'A', width: 10 }], headerStyle: 0, styleOf: () => 0 },
        endless(),
      ),
    ).rejects.toBeInstanceOf(DownloadClosedError);
    // 64 KiB of a zip holds a few pages of 100 rows, not thousands.
    expect(pulled).toBeLessThan(50);
  });

  it('escapes text as XML and keeps what Excel would read as its own escapes', () => {
    expect(xmlText('plain text')).toBe('plain text');
    expect(xmlText('a < b & "c" > d')).toBe('a &lt; b &amp; &quot;c&quot; &gt; d');
    expect(xmlText('bell\u0007 and \u001F')).toBe('bell_x0007_ and _x001F_');
    expect(xmlText('tab\tand\nline')).toBe('tab\tand\nline');
    expect(xmlText('literal _x0041_')).toBe('literal _x005F_x0041_');
    expect(xmlText('lone \uD800 surrogate, pair 😀')).toBe('lone _xD800_ surrogate, pair 😀');
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});
