/**
 * The columns of an imported sheet (spec §3 "Imported demand planning item") and the header
 * aliases of spec §5. A header names a field when it contains the field's name or one of its
 * aliases as whole words, case-insensitive: "SKU Code", "sku_id" and "Business Unit (BU)" all match.
 */

export const REQUIRED_IMPORT_FIELDS = ['sku', 'category', 'businessUnit'] as const;

export const IMPORT_FIELDS = [
  'sku',
  'category',
  'businessUnit',
  'region',
  'site',
  'plannerName',
  'forecastQ1',
  'forecastQ2',
  'forecastQ3',
  'forecastQ4',
  'overrideQ1',
  'overrideQ2',
  'overrideQ3',
  'overrideQ4',
  'reasonCode',
  'notes',
  'lastModified',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const IMPORT_FORECAST_FIELDS = ['forecastQ1', 'forecastQ2', 'forecastQ3', 'forecastQ4'] as const;
export const IMPORT_OVERRIDE_FIELDS = ['overrideQ1', 'overrideQ2', 'overrideQ3', 'overrideQ4'] as const;
export type ImportQuarterField =
  (typeof IMPORT_FORECAST_FIELDS)[number] | (typeof IMPORT_OVERRIDE_FIELDS)[number];

/** Spec §5's aliases; each field's own name (split at capitals) matches too. */
const TEXT_ALIASES: Partial<Record<ImportField, readonly string[]>> = {
  sku: ['sku', 'item', 'product', 'part number'],
  category: ['category', 'cat', 'product category'],
  businessUnit: ['business unit', 'bu', 'division'],
  region: ['region', 'area', 'territory'],
  site: ['site', 'location', 'facility', 'warehouse'],
  plannerName: ['planner name', 'planner', 'buyer'],
  reasonCode: ['reason code', 'reason'],
  notes: ['notes', 'comments', 'remarks'],
  lastModified: ['last modified', 'modified', 'date'],
};

/** "businessUnit", "Business_Unit" and " BUSINESS  unit " all become "business unit". */
export function normalizeHeader(header: string): string {
  return header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const containsWords = (header: string, phrase: string): boolean => ` ${header} `.includes(` ${phrase} `);

/** Forecast or override of quarter n, written 'forecast q1', 'Q1 Forecast', 'overrideQ1', 'Q1 Ovrd'… */
function quarterFieldOf(header: string): ImportQuarterField | null {
  const kind = /\b(forecast|fcst)\b/.test(header)
    ? 'forecast'
    : /\b(override|ovrd)\b/.test(header)
      ? 'override'
      : null;
  const quarter = /\bq ?([1-4])\b/.exec(header);
  if (!kind || !quarter) return null;
  return `${kind}Q${quarter[1]}` as ImportQuarterField;
}

/** How well a header names a field: 2 exactly, 1 by containing it (longer phrases first), 0 not. */
function matchScore(header: string, field: ImportField): number {
  if (/^(forecast|override)Q/.test(field)) return quarterFieldOf(header) === field ? 2 : 0;
  // A period column ("forecast m1"), a total or a variance mentions other fields' words: never a text field.
  if (quarterFieldOf(header) || /\b(forecast|override|total|variance)\b/.test(header)) return 0;
  const phrases = TEXT_ALIASES[field] ?? [];
  if (phrases.includes(header)) return 2;
  const longest = Math.max(0, ...phrases.filter((p) => containsWords(header, p)).map((p) => p.length));
  return longest > 0 ? 1 + longest / 1000 : 0;
}

/**
 * Assigns header columns to fields: exact names first, then the longest contained alias; a column
 * serves one field, the first column wins a tie. Returns the column index of each found field.
 */
export function mapHeaders(headers: readonly string[]): Partial<Record<ImportField, number>> {
  const normalized = headers.map(normalizeHeader);
  const candidates: { field: ImportField; column: number; score: number }[] = [];
  for (const field of IMPORT_FIELDS) {
    normalized.forEach((header, column) => {
      const score = header === '' ? 0 : matchScore(header, field);
      if (score > 0) candidates.push({ field, column, score });
    });
  }
  candidates.sort((a, b) => b.score - a.score || a.column - b.column);
  const mapping: Partial<Record<ImportField, number>> = {};
  const taken = new Set<number>();
  for (const { field, column } of candidates) {
    if (mapping[field] !== undefined || taken.has(column)) continue;
    mapping[field] = column;
    taken.add(column);
  }
  return mapping;
}
