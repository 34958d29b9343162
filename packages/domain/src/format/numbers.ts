import type { UserSettings } from '../user-settings';

export type NumberFormat = UserSettings['numberFormat'];

/**
 * Rounds half away from zero at `decimals` places, on the decimal text of the number rather than
 * its binary value, so 1.005 → 1.01 as a person reading the figure expects (toFixed gives 1.00).
 */
export function roundTo(value: number, decimals: number): number {
  const sign = value < 0 ? -1 : 1;
  const text = String(Math.abs(value));
  // Very large or tiny numbers print in exponent form already; their binary error is immaterial.
  if (text.includes('e')) return (sign * Math.round(Math.abs(value) * 10 ** decimals)) / 10 ** decimals;
  const shifted = Math.round(Number(`${text}e${decimals}`));
  return sign * Number(`${shifted}e-${decimals}`);
}

/**
 * Inserts thousands separators into a string of digits: groups of three ('us': 1,234,567) or the
 * Indian system, three then twos (12,34,567).
 */
export function groupDigits(digits: string, numberFormat: NumberFormat): string {
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3);
  const size = numberFormat === 'indian' ? 2 : 3;
  const groups: string[] = [];
  for (let end = rest.length; end > 0; end -= size) groups.unshift(rest.slice(Math.max(0, end - size), end));
  return `${groups.join(',')},${last3}`;
}

export type NumberFormatOptions = {
  numberFormat?: NumberFormat;
  /** Fixed number of decimals; default 0. */
  decimals?: number;
};

/** True for values a formatter can show: finite numbers. Null, undefined and NaN format as ''. */
export function isShowable(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** 1234567.891 → '1,234,567.89' (us) or '12,34,567.89' (indian) with decimals 2. */
export function formatNumber(value: number | null | undefined, options: NumberFormatOptions = {}): string {
  if (!isShowable(value)) return '';
  const decimals = options.decimals ?? 0;
  const rounded = roundTo(value, decimals);
  const [whole = '0', fraction] = Math.abs(rounded).toFixed(decimals).split('.');
  const sign = rounded < 0 ? '-' : '';
  const grouped = groupDigits(whole, options.numberFormat ?? 'us');
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}
