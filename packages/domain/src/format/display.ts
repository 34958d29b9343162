import { formatCurrency, type Currency } from './currency';
import { formatNumber, isShowable, roundTo, type NumberFormat } from './numbers';

/**
 * The fixed display formats of spec §9. Each takes the user's number format and currency so the
 * settings apply everywhere; with the defaults (us, usd) they print exactly as the spec shows.
 */
export type DisplayOptions = { numberFormat?: NumberFormat; currency?: Currency };

/** Money cells: currency symbol, 2 decimals. 1234.5 → '$1,234.50'. */
export function formatMoneyCell(value: number | null | undefined, options: DisplayOptions = {}): string {
  return formatCurrency(value, { ...options, decimals: 2 });
}

/** Percent cells: 2 decimals. 12.345 → '12.35%'. */
export function formatPercentCell(value: number | null | undefined, options: DisplayOptions = {}): string {
  if (!isShowable(value)) return '';
  return `${formatNumber(value, { numberFormat: options.numberFormat ?? 'us', decimals: 2 })}%`;
}

/** Financial dashboard values are shown ×10, whole units: 123456.7 → '$1,234,567'. */
export const DASHBOARD_VALUE_MULTIPLIER = 10;

export function formatDashboardCurrency(
  value: number | null | undefined,
  options: DisplayOptions = {},
): string {
  if (!isShowable(value)) return '';
  return formatCurrency(value * DASHBOARD_VALUE_MULTIPLIER, { ...options, decimals: 0 });
}

/** Dashboard changes: one decimal, '+' when positive. 5.25 → '+5.3%', -2 → '-2.0%', 0 → '0.0%'. */
export function formatSignedPercent(value: number | null | undefined, options: DisplayOptions = {}): string {
  if (!isShowable(value)) return '';
  const rounded = roundTo(value, 1);
  const text = formatNumber(rounded, { numberFormat: options.numberFormat ?? 'us', decimals: 1 });
  return `${rounded > 0 ? '+' : ''}${text}%`;
}

/** Override net impact in signed thousands: 12345 → '+$12.3K', -800 → '-$0.8K', 0 → '$0.0K'. */
export function formatSignedThousands(
  value: number | null | undefined,
  options: DisplayOptions = {},
): string {
  if (!isShowable(value)) return '';
  const thousands = roundTo(value / 1000, 1);
  const text = formatCurrency(thousands, { ...options, decimals: 1 });
  return `${thousands > 0 ? '+' : ''}${text}K`;
}

/** The control tower's money scales (spec §9 scale options). */
export const MONEY_SCALES = ['K', 'M', 'B'] as const;
export type MoneyScale = (typeof MONEY_SCALES)[number];
const SCALE_DIVISORS: Record<MoneyScale, number> = { K: 1e3, M: 1e6, B: 1e9 };

/**
 * Control tower money (spec §9): symbol, value in the chosen scale, one decimal when the scaled
 * value is below 10 in size, else none. 1_234_567 in M → '$1.2M'; 12_345_678 in M → '$12M'.
 */
export function formatScaledCurrency(
  value: number | null | undefined,
  scale: MoneyScale,
  options: DisplayOptions = {},
): string {
  if (!isShowable(value)) return '';
  const scaled = value / SCALE_DIVISORS[scale];
  const decimals = Math.abs(scaled) < 10 ? 1 : 0;
  return `${formatCurrency(scaled, { ...options, decimals })}${scale}`;
}
