import { PERIOD_COUNTS, periodOfWeek, weekIndexOf, type ExportHorizon, type PeriodKind } from './horizon';

/**
 * The export row of spec §3: one row per SKU, its attributes, the statistical forecast and the
 * planners' override per period of the horizon (see horizon.ts), totals and variance. Column names
 * are the spec's field names, which the import's header aliases (spec §5) recognise.
 */
export type ExportColumnKind = 'text' | 'units' | 'money' | 'percent' | 'date';
export type ExportColumn = { key: string; kind: ExportColumnKind };

const periodColumns = (kind: PeriodKind): ExportColumn[] =>
  (['forecast', 'override'] as const).flatMap((what) =>
    Array.from({ length: PERIOD_COUNTS[kind] }, (_, i) => ({
      key: `${what}${kind}${i + 1}`,
      kind: 'units' as const,
    })),
  );

const text = (key: string): ExportColumn => ({ key, kind: 'text' });

export const EXPORT_ROW_COLUMNS: readonly ExportColumn[] = [
  ...['sku', 'name', 'category', 'businessUnit', 'region', 'site', 'plannerName'].map(text),
  ...periodColumns('Q'),
  ...periodColumns('M'),
  ...periodColumns('W'),
  { key: 'totalForecast', kind: 'units' },
  { key: 'totalOverride', kind: 'units' },
  { key: 'variance', kind: 'units' },
  { key: 'variancePercent', kind: 'percent' },
  { key: 'lastModified', kind: 'date' },
  text('notes'),
  // Beyond the spec's row: the same totals in money, so the sheet carries what finance reads.
  { key: 'totalForecastRevenue', kind: 'money' },
  { key: 'totalPlanRevenue', kind: 'money' },
];

export type ExportCell = string | number | null;
export type ExportRow = Record<string, ExportCell>;

/** A product as the export reads it (the catalogue has no product name; `name` repeats the SKU). */
export type ExportProduct = {
  pid: string;
  category: string;
  businessUnit: string;
  region: string;
  site: string;
  plannerName: string | null;
  notes: string | null;
  unitPrice: number;
  /** Latest change to any of the product's records, ISO timestamp. */
  lastModified: string | null;
};

/** One of the product's weeks inside the horizon. */
export type ExportWeek = {
  timeSeriesSk: string;
  /** Ensemble_Fcst_Units, Final_Pln_Units, Final_Pln_Rev_Dlrs. */
  forecast: number | null;
  final: number | null;
  finalRevenue: number | null;
  /** Any of the four override fields is set. */
  overridden: boolean;
};

const cents = (dollars: number): number => Math.round(dollars * 100);
/**
 * Sums of fractional units to the hundredth: the grid shows units to 2 decimals, and binary
 * floating point would otherwise write 1862.3599999999997 where the planner sees 1,862.36.
 */
const hundredths = (value: number): number => Math.round(value * 100) / 100;
const hundredthsOrNull = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : hundredths(value);

/**
 * Builds the row. forecastXn = Σ Ensemble_Fcst_Units of the period's weeks (blank when the product
 * has no record there); overrideXn = Σ Final_Pln_Units of the period's weeks when at least one of
 * them carries an override, blank otherwise, so that a re-imported file only overrides what a
 * planner overrode or typed. totalForecast and totalOverride sum forecast and final plan over all
 * 52 weeks; variance = totalOverride − totalForecast; variancePercent = variance / totalForecast
 * × 100 (2 decimals, 0 when totalForecast is 0, spec §9's delta rule).
 */
export function buildExportRow(
  horizon: ExportHorizon,
  product: ExportProduct,
  weeks: readonly ExportWeek[],
): ExportRow {
  const row: ExportRow = {
    sku: product.pid,
    name: product.pid,
    category: product.category,
    businessUnit: product.businessUnit,
    region: product.region,
    site: product.site,
    plannerName: product.plannerName,
  };
  const sums = new Map<string, number>();
  const overridden = new Set<string>();
  const add = (key: string, value: number | null) => {
    if (value !== null) sums.set(key, (sums.get(key) ?? 0) + value);
  };
  let totalForecast: number | null = null;
  let totalFinal: number | null = null;
  let forecastRevenueCents = 0;
  let planRevenueCents = 0;
  for (const week of weeks) {
    const index = weekIndexOf(horizon, week.timeSeriesSk);
    if (index === null) continue;
    for (const kind of ['Q', 'M', 'W'] as const) {
      const n = periodOfWeek(kind, index);
      add(`forecast${kind}${n}`, week.forecast ?? 0);
      add(`override${kind}${n}`, week.final ?? 0);
      if (week.overridden) overridden.add(`override${kind}${n}`);
    }
    totalForecast = (totalForecast ?? 0) + (week.forecast ?? 0);
    totalFinal = (totalFinal ?? 0) + (week.final ?? 0);
    forecastRevenueCents += cents((week.forecast ?? 0) * product.unitPrice);
    planRevenueCents += cents(week.finalRevenue ?? 0);
  }
  for (const kind of ['Q', 'M', 'W'] as const) {
    for (let n = 1; n <= PERIOD_COUNTS[kind]; n += 1) {
      row[`forecast${kind}${n}`] = hundredthsOrNull(sums.get(`forecast${kind}${n}`));
      const key = `override${kind}${n}`;
      row[key] = overridden.has(key) ? hundredthsOrNull(sums.get(key)) : null;
    }
  }
  const variance =
    totalForecast === null || totalFinal === null ? null : hundredths(totalFinal - totalForecast);
  row.totalForecast = hundredthsOrNull(totalForecast);
  row.totalOverride = hundredthsOrNull(totalFinal);
  row.variance = variance;
  row.variancePercent =
    variance === null ? null : totalForecast ? Math.round((variance / totalForecast) * 10_000) / 100 : 0;
  row.lastModified = product.lastModified;
  row.notes = product.notes;
  row.totalForecastRevenue = totalForecast === null ? null : forecastRevenueCents / 100;
  row.totalPlanRevenue = totalForecast === null ? null : planRevenueCents / 100;
  return row;
}

/** Σ Final_Pln_Units per quarter of the horizon, overridden or not (the summary's plan by quarter). */
export function quarterPlansOf(horizon: ExportHorizon, weeks: readonly ExportWeek[]): number[] {
  const plans = Array.from({ length: PERIOD_COUNTS.Q }, () => 0);
  for (const week of weeks) {
    const index = weekIndexOf(horizon, week.timeSeriesSk);
    if (index !== null) plans[periodOfWeek('Q', index) - 1]! += week.final ?? 0;
  }
  return plans.map(hundredths);
}

/** The summary sheet's figures over all exported rows. */
export type ExportSummary = {
  skus: number;
  totalForecast: number;
  totalOverride: number;
  variance: number;
  variancePercent: number;
  totalForecastRevenue: number;
  totalPlanRevenue: number;
  /** Σ forecast and Σ final plan per quarter, Q1 first. */
  quarters: Array<{ forecast: number; plan: number }>;
};

export function emptySummary(): ExportSummary {
  return {
    skus: 0,
    totalForecast: 0,
    totalOverride: 0,
    variance: 0,
    variancePercent: 0,
    totalForecastRevenue: 0,
    totalPlanRevenue: 0,
    quarters: Array.from({ length: PERIOD_COUNTS.Q }, () => ({ forecast: 0, plan: 0 })),
  };
}

/** Adds a row and its quarterPlansOf to the running summary. */
export function addToSummary(summary: ExportSummary, row: ExportRow, quarterPlans: readonly number[]): void {
  const num = (key: string) => (typeof row[key] === 'number' ? row[key] : 0);
  summary.skus += 1;
  summary.totalForecast = hundredths(summary.totalForecast + num('totalForecast'));
  summary.totalOverride = hundredths(summary.totalOverride + num('totalOverride'));
  summary.variance = hundredths(summary.totalOverride - summary.totalForecast);
  summary.variancePercent = summary.totalForecast
    ? Math.round((summary.variance / summary.totalForecast) * 10_000) / 100
    : 0;
  summary.totalForecastRevenue = cents(summary.totalForecastRevenue + num('totalForecastRevenue')) / 100;
  summary.totalPlanRevenue = cents(summary.totalPlanRevenue + num('totalPlanRevenue')) / 100;
  summary.quarters.forEach((quarter, i) => {
    quarter.forecast = hundredths(quarter.forecast + num(`forecastQ${i + 1}`));
    quarter.plan = hundredths(quarter.plan + (quarterPlans[i] ?? 0));
  });
}
