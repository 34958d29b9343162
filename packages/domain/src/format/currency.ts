import type { UserSettings } from '../user-settings';
import { formatNumber, isShowable, type NumberFormat } from './numbers';

export type Currency = UserSettings['currency'];

export const CURRENCY_SYMBOLS: Record<Currency, string> = {
  usd: '$',
  eur: '€',
  inr: '₹',
  gbp: '£',
};

export type CurrencyFormatOptions = {
  currency?: Currency;
  numberFormat?: NumberFormat;
  /** Default 2 (money cells, spec §9). */
  decimals?: number;
};

/** -1234.5 → '-$1,234.50'; the sign goes before the symbol. */
export function formatCurrency(
  value: number | null | undefined,
  options: CurrencyFormatOptions = {},
): string {
  if (!isShowable(value)) return '';
  const symbol = CURRENCY_SYMBOLS[options.currency ?? 'usd'];
  const digits = formatNumber(Math.abs(value), {
    numberFormat: options.numberFormat ?? 'us',
    decimals: options.decimals ?? 2,
  });
  const isNegative = value < 0 && /[1-9]/.test(digits);
  return `${isNegative ? '-' : ''}${symbol}${digits}`;
}
