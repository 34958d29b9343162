import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Cell } from '@ps/domain';
import { openXlsxWorkbook, xlsxSheets } from './xlsx-sheets';
import { openZip, zipProblem } from './zip-guard';

/** A workbook's parts as an .xlsx holds them, written by hand: what other tools than exceljs write. */
function parts(
  sheets: Record<string, string>,
  extra: { date1904?: boolean; styles?: string; shared?: string } = {},
) {
  const names = Object.keys(sheets);
  const map = new Map<string, Buffer>([
    [
      'xl/workbook.xml',
      Buffer.from(
        `<workbook xmlns:r="r">${extra.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets>${names
          .map((name, i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join('')}</sheets></workbook>`,
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      Buffer.from(
        `<Relationships>${names
          .map(
            (_, i) =>
              `<Relationship Id="rId${i + 1}" Type="ws" Target="${i === 0 ? '/xl/' : ''}worksheets/sheet${i + 1}.xml"/>`,
          )
          .join('')}</Relationships>`,
      ),
    ],
  ]);
  names.forEach((name, i) =>
    map.set(
      `xl/worksheets/sheet${i + 1}.xml`,
      Buffer.from(`<worksheet><sheetData>${sheets[name]}</sheetData></worksheet>`),
    ),
  );
  if (extra.styles) map.set('xl/styles.xml', Buffer.from(extra.styles));
  if (extra.shared) map.set('xl/sharedStrings.xml', Buffer.from(extra.shared));
  return map;
}

describe('reading .xlsx sheets from their XML', () => {
  it('reads shared, rich, inline and formula strings, numbers, booleans and errors, with gaps', () => {
    const shared =
      '<sst><si><t>SKU</t></si><si><r><t>Ball </t></r><r><t xml:space="preserve">Valves &amp; Co</t></r><rPh><t>x</t></rPh></si></sst>';
    const [sheet] = xlsxSheets(
      parts(
        {
          Data: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>Notes &lt;1&gt;</t></is></c></row>
            <row r="3"><c r="A3" t="s"><v>1</v></c><c r="B3"><f>1+1</f><v>2.5</v></c><c r="C3" t="str"><f>A1</f><v>SKU</v></c>
            <c r="D3" t="b"><v>1</v></c><c r="E3" t="e"><v>#DIV/0!</v></c><c r="F3"/><c r="G3"><f>X</f></c></row>`,
        },
        { shared },
      ),
    );
    expect(sheet!.name).toBe('Data');
    expect(sheet!.rows()).toEqual([
      ['SKU', null, 'Notes <1>'],
      [],
      ['Ball Valves & Co', 2.5, 'SKU', true, '#DIV/0!', null, null],
    ]);
  });

  it('turns numbers with a date format into dates, in the 1900 and 1904 systems, and ISO date cells', () => {
    const styles = `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="&quot;$&quot;#,##0.00"/></numFmts>
      <cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs></styleSheet>`;
    const row =
      '<row r="1"><c r="A1" s="1"><v>45658</v></c><c r="B1" s="2"><v>45658.5</v></c><c r="C1" s="3"><v>45658</v></c><c r="D1" t="d"><v>2025-01-01T00:00:00Z</v></c></row>';
    expect(xlsxSheets(parts({ S: row }, { styles }))[0]!.rows()).toEqual([
      [
        new Date('2025-01-01T00:00:00Z'),
        new Date('2025-01-01T12:00:00Z'),
        45658,
        new Date('2025-01-01T00:00:00Z'),
      ],
    ]);
    // 1904 system: serial 0 is 1904-01-01.
    expect(
      xlsxSheets(
        parts({ S: '<row r="1"><c r="A1" s="1"><v>0</v></c></row>' }, { styles, date1904: true }),
      )[0]!.rows(),
    ).toEqual([[new Date('1904-01-01T00:00:00Z')]]);
  });

  it('repeats a merged cell in every cell it covers, and lists every sheet in order', () => {
    const xml = parts({
      Summary: '<row r="1"><c r="A1"><v>1</v></c></row>',
      'Demand Plan Data': '<row r="1"><c r="A1" t="inlineStr"><is><t>EMEA</t></is></c></row><row r="2"/>',
    });
    const sheet2 = xml
      .get('xl/worksheets/sheet2.xml')!
      .toString()
      .replace('</worksheet>', '<mergeCells><mergeCell ref="A1:B2"/></mergeCells></worksheet>');
    xml.set('xl/worksheets/sheet2.xml', Buffer.from(sheet2));
    const sheets = xlsxSheets(xml);
    expect(sheets.map((s) => s.name)).toEqual(['Summary', 'Demand Plan Data']);
    expect(sheets[1]!.rows()).toEqual([
      ['EMEA', 'EMEA'],
      ['EMEA', 'EMEA'],
    ]);
  });

  it('reads elements under the prefix a part binds to SpreadsheetML (the .NET OpenXML SDK writes x:)', () => {
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const xml = new Map<string, Buffer>([
      [
        'xl/workbook.xml',
        Buffer.from(
          `<x:workbook xmlns:x="${main}" xmlns:rel="r"><x:sheets><x:sheet name="S" sheetId="1" rel:id="a"/></x:sheets></x:workbook>`,
        ),
      ],
      [
        'xl/_rels/workbook.xml.rels',
        Buffer.from('<Relationships><Relationship Id="a" Target="s.xml"/></Relationships>'),
      ],
      [
        'xl/sharedStrings.xml',
        Buffer.from(
          `<q:sst xmlns:q="${main}"><q:si><q:r><q:t>A</q:t></q:r><q:r><q:t>B</q:t></q:r></q:si></q:sst>`,
        ),
      ],
      [
        'xl/s.xml',
        Buffer.from(
          `<x:worksheet xmlns:x="${main}"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1"><x:v>2</x:v></x:c></x:row></x:sheetData>` +
            `<x:mergeCells><x:mergeCell ref="B1:C1"/></x:mergeCells></x:worksheet>`,
        ),
      ],
    ]);
    expect(xlsxSheets(xml)[0]!.rows()).toEqual([['AB', 2, 2]]);
  });

  it('streams a sheet in chunks with the same rows as reading it whole (rows across chunk edges)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    for (let i = 0; i < 3000; i++) sheet.addRow([`SKU-${i}`, i * 1.5, `note ${'x'.repeat(i % 97)} ${i}`]);
    sheet.mergeCells('D10:E2000');
    sheet.getCell('D10').value = 'merged';
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const parts = new Map<string, Buffer>();
    expect(zipProblem(bytes, 100_000_000, parts)).toBeNull();
    const whole = xlsxSheets(parts)[0]!.rows();
    const archive = openZip(bytes, 100_000_000);
    if ('problem' in archive) throw new Error(archive.problem);
    const workbook = await openXlsxWorkbook(archive);
    if ('problem' in workbook) throw new Error(workbook.problem);
    const streamed: Cell[][] = [];
    await workbook.readRows(0, (cells, row) => {
      while (streamed.length < row - 1) streamed.push([]);
      streamed[row - 1] = cells;
    });
    expect(streamed.length).toBe(3000);
    expect(streamed).toEqual(whole);
    expect(streamed[1999]![4]).toBe('merged');
  });
});
