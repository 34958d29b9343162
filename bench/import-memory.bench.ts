import { crc32, deflateRawSync } from 'node:zlib';
import type { ImportJob, ImportPreview } from '@ps/domain';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startExportServer, type ExportServer } from './export.bench';
import { ms, type BenchRow } from './stats';

/** The upload limit the server is configured with by default (IMPORT_MAX_BYTES). */
const MAX_BYTES = 50 * 1024 * 1024;
/** What the files may hold at most: a little under the limit, as a planner's largest file would. */
const TARGET_BYTES = MAX_BYTES - 256 * 1024;
const XLSX_ROWS = Number(process.env.IMPORT_MEMORY_BENCH_ROWS ?? 200_000);
const BUDGET = { workerHeapMb: 256, serverRssMb: 600 };
/** Long enough that XLSX_ROWS rows of random notes fill the byte limit. */
const DENSE_NOTE_CHARS = 330;

const HEADER = [
  'SKU',
  'Name',
  'Description',
  'Category',
  'Business Unit',
  'Region',
  'Site',
  'Planner Name',
  'Forecast Q1',
  'Forecast Q2',
  'Forecast Q3',
  'Forecast Q4',
  'Override Q1',
  'Override Q2',
  'Override Q3',
  'Override Q4',
  'Supplier',
  'Lead Time',
  'Notes',
  'Last Modified',
];
const WORDS =
  'valve pump seal flange bearing gasket actuator steel brass order review supplier delay demand'.split(' ');

/** A planner's note of about 360 characters, different on every row (words and figures as typed). */
function noteOf(i: number): string {
  let seed = (i + 1) * 2_654_435_761;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed;
  };
  let note = `Row ${i}:`;
  while (note.length < 355) {
    const word = WORDS[next() % WORDS.length]!;
    note += next() % 3 === 0 ? ` ${word} ${next() % 10_000}` : ` ${word}`;
  }
  return note;
}

/**
 * A note that barely compresses (serial numbers and hashes pasted by a tool): random letters and
 * digits from a 32-bit mixing generator, so an .xlsx of these reaches the byte limit within the
 * row limit instead of staying a few MB.
 */
function denseNoteOf(i: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let state = (i + 1) * 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return (t ^ (t >>> 14)) >>> 0;
  };
  let note = `Lot ${i}:`;
  while (note.length < DENSE_NOTE_CHARS) note += alphabet[next() % alphabet.length];
  return note;
}

type NoteOf = (i: number) => string;

/** One row: a new SKU, its attributes, a Q1 forecast on one row in ten, a long note. */
function rowOf(round: number, i: number, note: NoteOf = noteOf): Array<string | number> {
  return [
    `MEM-${round}-${String(i).padStart(6, '0')}`,
    `Ball valve ${i % 500}`,
    'Stainless, full port',
    'Ball Valves',
    'Industrial Valves',
    'EMEA',
    'Houston',
    'Ana Ruiz',
    i % 10 === 0 ? 1300 : '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    `Supplier ${i % 40}`,
    14,
    note(i),
    '03/15/2026',
  ];
}

const csvField = (value: string | number): string => {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** As many rows as fit in TARGET_BYTES. */
function csvFile(round: number): { bytes: Buffer; rows: number } {
  const parts: Buffer[] = [Buffer.from(`${HEADER.join(',')}\r\n`)];
  let size = parts[0]!.length;
  let rows = 0;
  for (;;) {
    const line = Buffer.from(`${rowOf(round, rows).map(csvField).join(',')}\r\n`);
    if (size + line.length > TARGET_BYTES) break;
    parts.push(line);
    size += line.length;
    rows += 1;
  }
  return { bytes: Buffer.concat(parts), rows };
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const column = (index: number): string =>
  index < 26 ? String.fromCharCode(65 + index) : `A${String.fromCharCode(65 + index - 26)}`;

/**
 * `rows` rows as Excel writes them: text in the shared strings (every note its own entry),
 * numbers in the cells; deflated at zlib's default level, about what Excel's own files get.
 */
function xlsxFile(round: number, rows = XLSX_ROWS, note: NoteOf = noteOf): { bytes: Buffer; rows: number } {
  const shared: string[] = [];
  const index = new Map<string, number>();
  const stringCell = (ref: string, text: string): string => {
    let at = index.get(text);
    if (at === undefined) {
      at = shared.push(text) - 1;
      index.set(text, at);
    }
    return `<c r="${ref}" t="s"><v>${at}</v></c>`;
  };
  const sheet: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  ];
  const addRow = (r: number, values: Array<string | number>) => {
    const cells = values
      .map((value, c) =>
        value === ''
          ? ''
          : typeof value === 'number'
            ? `<c r="${column(c)}${r}"><v>${value}</v></c>`
            : stringCell(`${column(c)}${r}`, value),
      )
      .join('');
    sheet.push(`<row r="${r}">${cells}</row>`);
  };
  addRow(1, HEADER);
  for (let i = 0; i < rows; i++) addRow(i + 2, rowOf(round, i, note));
  sheet.push('</sheetData></worksheet>');
  const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rels = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
  const type = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const parts: Record<string, Buffer> = {
    '[Content_Types].xml': Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ),
    '_rels/.rels': Buffer.from(
      `<Relationships ${rels}><Relationship Id="r1" Type="${type}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': Buffer.from(
      `<workbook ${main} xmlns:r="${type}"><sheets><sheet name="Data" sheetId="1" r:id="s1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': Buffer.from(
      `<Relationships ${rels}><Relationship Id="s1" Type="${type}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="s2" Type="${type}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': Buffer.from(sheet.join('')),
    'xl/sharedStrings.xml': Buffer.from(
      `<sst ${main} count="${shared.length}" uniqueCount="${shared.length}">${shared.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('')}</sst>`,
    ),
  };
  return { bytes: zip(parts), rows };
}

/** An .xlsx of barely compressible notes with as many rows (up to XLSX_ROWS) as fit in TARGET_BYTES. */
function denseXlsxFile(round: number): { bytes: Buffer; rows: number } {
  let file = xlsxFile(round, XLSX_ROWS, denseNoteOf);
  while (file.bytes.length > TARGET_BYTES) {
    const rows = Math.floor((file.rows * TARGET_BYTES * 0.99) / file.bytes.length);
    file = xlsxFile(round, rows, denseNoteOf);
  }
  return file;
}

const FILES = {
  csv: { extension: 'csv', build: csvFile, label: '' },
  xlsx: { extension: 'xlsx', build: (round: number) => xlsxFile(round), label: '' },
  'xlsx-dense': { extension: 'xlsx', build: denseXlsxFile, label: ', barely compressible notes' },
} as const;

/** A zip archive of deflated entries (no ZIP64: every part here is under 4 GB). */
function zip(entries: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = deflateRawSync(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(content);
    const header = (size: number, signature: number) => {
      const buffer = Buffer.alloc(size);
      buffer.writeUInt32LE(signature, 0);
      return buffer;
    };
    const local = header(30, 0x04034b50);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = header(46, 0x02014b50);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function post<T>(
  server: ExportServer,
  path: string,
  name: string,
  file: Buffer,
): Promise<{ status: number; data?: T; text: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  let response: Response;
  try {
    response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: server.headers,
      body: form,
    });
  } catch (error) {
    // The server closed the upload (it refused the file early, or it died): a row that says so.
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { status: 0, text: `connection closed: ${cause}` };
  }
  const text = await response.text();
  return {
    status: response.status,
    text,
    ...(response.ok ? { data: (JSON.parse(text) as { data: T }).data } : {}),
  };
}

async function follow(server: ExportServer, job: ImportJob): Promise<ImportJob> {
  let current = job;
  while (current.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const response = await fetch(`${server.baseUrl}/api/demand-planning-items/import/${current.id}`, {
      headers: server.headers,
    });
    current = ((await response.json()) as { data: ImportJob }).data;
  }
  return current;
}

/**
 * The largest files a planner may send (50 MB, notes of ~360 characters on every row, 20 columns):
 * a CSV of as many rows as fit, an .xlsx of 200,000 rows, and an .xlsx whose notes barely compress
 * with as many rows as fit (the limit in bytes reached by a workbook), each previewed then imported on
 * PostgreSQL with the server in a process of its own. Reports the parse worker's largest heap
 * (sampled while it reads, steps.parseHeapMb) and the server's peak resident memory (VmHWM).
 */
export async function runImportMemoryBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) return [];
  const server = await startExportServer({ products: 700, weeks: 52 });
  const rows: BenchRow[] = [];
  try {
    let round = 0;
    for (const kind of Object.values(FILES)) {
      round += 1;
      const file = kind.build(round);
      const name = `memory.${kind.extension}`;
      const previewStarted = performance.now();
      const preview = await post<ImportPreview>(
        server,
        '/api/demand-planning-items/import/preview',
        name,
        file.bytes,
      );
      const previewMs = performance.now() - previewStarted;
      const afterPreview = server.memoryMb().peak;
      const importStarted = performance.now();
      const started = await post<ImportJob>(server, '/api/demand-planning-items/import', name, file.bytes);
      const job = started.data ? await follow(server, started.data) : undefined;
      const importMs = performance.now() - importStarted;
      const peak = server.memoryMb().peak;
      const heap = job?.steps.parseHeapMb ?? Number.NaN;
      const failed = [preview, started].find((answer) => answer.status >= 400);
      rows.push({
        file: `.${kind.extension}, ${(file.bytes.length / 1024 / 1024).toFixed(1)} MB, ${file.rows.toLocaleString('en-US')} rows${kind.label}`,
        'preview status': preview.status,
        preview: ms(previewMs),
        'import status': started.status,
        import: `${ms(importMs)} ${job?.status ?? started.text.slice(0, 80)}`,
        'worker heap peak (MB)': heap,
        'server RSS peak after preview / import (MB)': `${Math.round(afterPreview)} / ${Math.round(peak)}`,
        budget: `heap < ${BUDGET.workerHeapMb}, RSS < ${BUDGET.serverRssMb}`,
        verdict:
          !failed && job?.status === 'succeeded' && heap < BUDGET.workerHeapMb && peak < BUDGET.serverRssMb
            ? 'ok'
            : 'OVER',
      });
    }
  } finally {
    await server.close();
  }
  return rows;
}
