import { describe, expect, it } from 'vitest';
import {
  EXPORT_ROW_COLUMNS,
  addToSummary,
  buildExportRow,
  csvFileName,
  currencyStatement,
  emptySummary,
  moneyStyle,
  standardExcelFormat,
  exportCurrencyOf,
  exportMoney,
  horizonOf,
  neutraliseText,
  periodOfWeek,
  quarterPlansOf,
  templateFileName,
  weeksOfPeriod,
  workbookFileName,
  detailedWorkbookFileName,
  type ExportProduct,
  type ExportWeek,
} from './index';

// Wednesday 25 Nov 2026: the horizon starts on Sunday 22 Nov 2026.
const horizon = horizonOf(new Date('2026-11-25T15:00:00Z'));

const product: ExportProduct = {
  pid: 'PRD-00001',
  category: 'Ball Valves',
  businessUnit: 'Flow Control',
  region: 'EMEA',
  site: 'Leeds',
  plannerName: null,
  notes: null,
  unitPrice: 2,
  lastModified: '2026-11-20T10:00:00.000Z',
};
const week = (
  sk: string,
  forecast: number,
  final: number,
  finalRevenue: number,
  overridden = false,
): ExportWeek => ({
  timeSeriesSk: sk,
  forecast,
  final,
  finalRevenue,
  overridden,
});

describe('export horizon', () => {
  it('is the 52 weeks from the current Sunday, in 13-week quarters and 4-week periods', () => {
    expect(horizon.first).toBe('2026-11-22');
    expect(horizon.last).toBe('2027-11-14');
    expect(horizon.weeks).toHaveLength(52);
    expect(weeksOfPeriod(horizon, 'Q', 2)).toHaveLength(13);
    expect(weeksOfPeriod(horizon, 'Q', 2)[0]).toBe('20270221');
    expect(weeksOfPeriod(horizon, 'M', 13)).toEqual(['20271024', '20271031', '20271107', '20271114']);
    expect(periodOfWeek('Q', 12)).toBe(1);
    expect(periodOfWeek('Q', 13)).toBe(2);
    expect(periodOfWeek('M', 51)).toBe(13);
    expect(periodOfWeek('W', 51)).toBe(52);
  });
});

describe('export row', () => {
  const weeks = [
    week('20261122', 10, 12, 24, true), // W1: overridden
    week('20261129', 5, 5, 10), // W2
    week('20270221', 7, 7, 14), // W14 = first week of Q2 and of M4
    week('20261115', 99, 99, 198, true), // the week before the horizon: left out
  ];
  const row = buildExportRow(horizon, product, weeks);

  it('sums forecast and final plan per quarter, period and week; blank overrides where nothing was overridden', () => {
    expect(row.sku).toBe('PRD-00001');
    expect(row.category).toBe('Ball Valves');
    expect(row.businessUnit).toBe('Flow Control');
    expect([row.forecastQ1, row.overrideQ1]).toEqual([15, 17]);
    expect([row.forecastQ2, row.overrideQ2]).toEqual([7, null]);
    expect([row.forecastQ3, row.overrideQ3]).toEqual([null, null]);
    expect([row.forecastM1, row.overrideM1, row.forecastM4, row.overrideM4]).toEqual([15, 17, 7, null]);
    expect([row.forecastW1, row.overrideW1, row.forecastW2, row.overrideW2]).toEqual([10, 12, 5, null]);
    expect(row.forecastW14).toBe(7);
    expect(row.forecastW52).toBeNull();
  });

  it('totals the horizon: variance 24 − 22 = 2, 2 / 22 = 9.09 %, revenue at list price and at plan', () => {
    expect(row.totalForecast).toBe(22);
    expect(row.totalOverride).toBe(24);
    expect(row.variance).toBe(2);
    expect(row.variancePercent).toBe(9.09);
    expect(row.totalForecastRevenue).toBe(44);
    expect(row.totalPlanRevenue).toBe(48);
    expect(row.lastModified).toBe('2026-11-20T10:00:00.000Z');
  });

  it('has one value per column, in the spec order with 4, 13 and 52 period columns', () => {
    const keys = EXPORT_ROW_COLUMNS.map((c) => c.key);
    expect(Object.keys(row).sort()).toEqual([...keys].sort());
    expect(keys.slice(0, 8)).toEqual([
      'sku',
      'name',
      'category',
      'businessUnit',
      'region',
      'site',
      'plannerName',
      'forecastQ1',
    ]);
    expect(keys.filter((k) => /^forecastQ\d+$/.test(k))).toHaveLength(4);
    expect(keys.filter((k) => /^overrideM\d+$/.test(k))).toHaveLength(13);
    expect(keys.filter((k) => /^forecastW\d+$/.test(k))).toHaveLength(52);
    expect(keys.indexOf('totalForecast')).toBe(7 + 8 + 26 + 104);
  });

  it('writes sums of fractional units to the hundredth, without floating-point noise', () => {
    // In binary floating point 0.1 + 0.2 is 0.30000000000000004 and 1000.1 + 862.26 is 1862.3600000000001.
    const weeks = [week('20261122', 0.1, 1000.1, 8, true), week('20261129', 0.2, 862.26, 8, true)];
    const noisy = buildExportRow(horizon, product, weeks);
    expect([noisy.forecastQ1, noisy.overrideQ1, noisy.forecastM1]).toEqual([0.3, 1862.36, 0.3]);
    expect([noisy.totalForecast, noisy.totalOverride, noisy.variance]).toEqual([0.3, 1862.36, 1862.06]);
    const summary = emptySummary();
    addToSummary(summary, noisy, quarterPlansOf(horizon, weeks));
    expect([summary.totalForecast, summary.totalOverride, summary.quarters[0]]).toEqual([
      0.3,
      1862.36,
      { forecast: 0.3, plan: 1862.36 },
    ]);
  });

  it('gives 0 % variance on a zero forecast and blanks for a product with no week in the horizon', () => {
    const zero = buildExportRow(horizon, product, [week('20261122', 0, 4, 8, true)]);
    expect([zero.variance, zero.variancePercent]).toEqual([4, 0]);
    const none = buildExportRow(horizon, product, []);
    expect([none.totalForecast, none.variance, none.variancePercent, none.forecastQ1]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('adds rows to the summary, the plan by quarter including quarters without overrides', () => {
    const summary = emptySummary();
    addToSummary(summary, row, quarterPlansOf(horizon, weeks));
    addToSummary(summary, buildExportRow(horizon, product, [week('20261122', 8, 8, 16)]), [8, 0, 0, 0]);
    expect(summary.skus).toBe(2);
    expect(summary.totalForecast).toBe(30);
    expect(summary.totalOverride).toBe(32);
    expect(summary.variancePercent).toBe(6.67);
    expect(summary.totalPlanRevenue).toBe(64);
    expect(summary.quarters[0]).toEqual({ forecast: 23, plan: 25 });
    expect(summary.quarters[1]).toEqual({ forecast: 7, plan: 7 });
  });
});

describe('export files', () => {
  const now = new Date('2026-11-21T23:30:00Z');
  it('names files as spec §9 says, dated in UTC', () => {
    expect(workbookFileName('category', 'quarterly', now)).toBe(
      'demand-planning-category-quarterly-2026-11-21.xlsx',
    );
    expect(detailedWorkbookFileName('category', 'quarterly', now)).toBe(
      'demand-planning-detailed-category-quarterly-2026-11-21.xlsx',
    );
    expect(csvFileName(now)).toBe('demand-planning-real-data-2026-11-21.csv');
    expect(templateFileName('sku', 'none')).toBe('demand-planning-import-template-sku-none.xlsx');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(['=SUM(A1)', '+1 555', '-x', '@cmd', '\tx', 'plain', ''].map(neutraliseText)).toEqual([
      "'=SUM(A1)",
      "'+1 555",
      "'-x",
      "'@cmd",
      "'\tx",
      'plain',
      '',
    ]);
  });
});

describe('money in the export currency', () => {
  const rates = [
    { currency: 'eur' as const, validFrom: '2026-01-01', rate: 0.92 },
    { currency: 'eur' as const, validFrom: '2026-07-01', rate: 0.864 },
    { currency: 'gbp' as const, validFrom: '2027-01-01', rate: 0.79 },
  ];
  const today = new Date('2026-11-25T15:00:00Z');

  it('uses the latest rate valid today, as the screens do, and says which', () => {
    const eur = exportCurrencyOf(rates, 'eur', today);
    expect(eur).toEqual({ rate: { currency: 'eur', rate: 0.864, validFrom: '2026-07-01' }, missing: null });
    expect(currencyStatement(eur)).toBe(
      'EUR, converted from USD at 0.8640 EUR per USD (rate valid from 2026-07-01)',
    );
    expect(standardExcelFormat(moneyStyle({ currency: eur, numberFormat: 'us' }))).toBe(
      '"€"#,##0.00;[Red]-"€"#,##0.00',
    );
  });

  it('converts a summed dollar figure to the cent: $1,234,567.89 × 0.864 = €1,066,666.66', () => {
    const eur = exportCurrencyOf(rates, 'eur', today);
    // 1,234,567.89 × 0.864 = 1,066,666.65696 → 1,066,666.66
    expect(exportMoney(1_234_567.89, eur)).toBe(1_066_666.66);
    expect(exportMoney(null, eur)).toBeNull();
    // Three rows of $0.70 are €0.60 each (0.6048), €1.80 if rounded parts were added; the total is
    // converted once: $2.10 × 0.864 = 1.8144 → €1.81.
    expect(exportMoney(0.7, eur)).toBe(0.6);
    expect(exportMoney(0.7 + 0.7 + 0.7, eur)).toBe(1.81);
  });

  it('stays in dollars when the currency has no rate valid today, and says so', () => {
    const gbp = exportCurrencyOf(rates, 'gbp', today);
    expect(gbp).toEqual({ rate: { currency: 'usd', rate: 1, validFrom: null }, missing: 'gbp' });
    expect(exportMoney(12.345, gbp)).toBe(12.35);
    expect(currencyStatement(gbp)).toBe(
      'USD: no GBP exchange rate is valid today, so amounts are in US dollars',
    );
    expect(currencyStatement(exportCurrencyOf(rates, 'usd', today))).toBe('USD (US dollars, as stored)');
    expect(standardExcelFormat(moneyStyle({ currency: gbp, numberFormat: 'us' }))).toBe(
      '"$"#,##0.00;[Red]-"$"#,##0.00',
    );
  });
});
