import type { DrillDown, ViewLevel } from '../planning-grid';
import { REASON_CODES } from '../demand-record';
import { IMPORT_FIELDS, REQUIRED_IMPORT_FIELDS } from '../spreadsheet-import/headers';

/** Spec §9 'Exports': file names (dated in UTC) and the workbook's sheets. */
export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const day = (now: Date): string => now.toISOString().slice(0, 10);

/** demand-planning-{viewLevel}-{drillDown}-{yyyy-mm-dd}.xlsx (Quick Export to Excel). */
export const workbookFileName = (viewLevel: ViewLevel, drillDown: DrillDown, now: Date): string =>
  `demand-planning-${viewLevel}-${drillDown}-${day(now)}.xlsx`;

/**
 * demand-planning-detailed-{viewLevel}-{drillDown}-{yyyy-mm-dd}.xlsx (Detailed Export): its own
 * name, so a detailed workbook never lands beside, or over, a quick one of the same view and day.
 */
export const detailedWorkbookFileName = (viewLevel: ViewLevel, drillDown: DrillDown, now: Date): string =>
  `demand-planning-detailed-${viewLevel}-${drillDown}-${day(now)}.xlsx`;

/** demand-planning-real-data-{yyyy-mm-dd}.csv (Quick Export to CSV, Export CSV). */
export const csvFileName = (now: Date): string => `demand-planning-real-data-${day(now)}.csv`;

/** demand-planning-import-template-{viewLevel}-{drillDown}.xlsx (Template Download). */
export const templateFileName = (viewLevel: ViewLevel, drillDown: DrillDown): string =>
  `demand-planning-import-template-${viewLevel}-${drillDown}.xlsx`;

export const SHEET_NAMES = {
  /** Quick Export's one sheet: what the grid shows. */
  view: 'Demand Plan',
  /** Detailed Export: the export rows (spec §3), then the summary, then the import template. */
  data: 'Demand Plan Data',
  summary: 'Summary',
  template: 'Import Template',
  /** Template Download: the template, then how to fill it. */
  instructions: 'Instructions',
} as const;

/**
 * The header row of the data sheet of a Detailed Export: rows 1–9 say what was exported (title,
 * time and user, clients, the three filters, search, horizon, currency and rate) with a label in
 * column A, row 10 is blank, row 11 holds the export row's field names (column A: 'sku') and the
 * SKUs start on row 12. The header is frozen.
 */
export const DATA_SHEET_HEADER_ROW = 11;

/**
 * The template's columns: the imported item of spec §3, in its order, and the three it requires.
 * They are the import's own field list, so the template always asks for exactly what the import reads.
 */
export const TEMPLATE_COLUMNS = IMPORT_FIELDS;
export const TEMPLATE_REQUIRED_COLUMNS = REQUIRED_IMPORT_FIELDS;

/** Spec §5 'Import template text', one line per rule, written on the Instructions sheet. */
export const TEMPLATE_INSTRUCTIONS: readonly string[] = [
  'Import Template Instructions',
  'Required columns: SKU, Category, Business Unit.',
  'Optional columns: Region, Site, Planner Name, numeric forecast/override values (Q1-Q4), Reason Code, Notes.',
  `Reason Code is written on the weeks a row's overrides change: ${REASON_CODES.join(', ')}. When an admin requires a reason with every override, a row with overrides needs one.`,
  'Duplicate SKUs will update existing records.',
  'Invalid data will be highlighted during import.',
  'Date format: MM/DD/YYYY.',
  'Q1 is the 13 weeks starting with the current week (Sunday); Q2-Q4 follow, 13 weeks each.',
];
