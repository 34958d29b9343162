/**
 * The M4 CSV layout: a header row, then one row per series — its id, then its values; shorter
 * series leave trailing cells empty. Cells may be quoted ("W1","1089.2").
 */

export type M4Series = { id: string; values: number[] };

/** Splits one CSV line, honouring double quotes and doubled quotes inside them. */
export function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let isQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (isQuoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') isQuoted = false;
      else cell += ch;
    } else if (ch === '"') isQuoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

/** Parses M4-format text. Throws on a non-numeric value so bad input never becomes a silent 0. */
export function parseM4Csv(text: string): M4Series[] {
  const lines = text.split(/\r?\n/);
  const series: M4Series[] = [];
  for (let row = 1; row < lines.length; row++) {
    const line = lines[row]!;
    if (line.trim() === '') continue;
    const [id = '', ...cells] = splitCsvLine(line);
    const values: number[] = [];
    for (const cell of cells) {
      const trimmed = cell.trim();
      if (trimmed === '') continue;
      const value = Number(trimmed);
      if (!Number.isFinite(value)) throw new Error(`Row ${row + 1} (${id}): "${trimmed}" is not a number`);
      values.push(value);
    }
    series.push({ id, values });
  }
  return series;
}

/** Writes M4-format text: header V1…V(k+1), ids and numbers quoted as the M4 files are. */
export function formatM4Csv(rows: readonly M4Series[]): string {
  const width = rows.reduce((max, row) => Math.max(max, row.values.length), 0);
  const header = Array.from({ length: width + 1 }, (_, i) => `"V${i + 1}"`).join(',');
  const lines = rows.map((row) => {
    const cells = [quote(row.id), ...row.values.map((v) => quote(formatNumber(v)))];
    while (cells.length < width + 1) cells.push('');
    return cells.join(',');
  });
  return [header, ...lines].join('\n') + '\n';
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Enough digits for any forecast, without the float noise of full precision. */
function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
}
