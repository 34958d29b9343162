import {
  BASE_CURRENCY,
  convertFromBase,
  rateOn,
  type AppliedRate,
  type DisplayCurrency,
  type ExchangeRate,
} from '../currency';
import type { DateFormat, NumberFormat } from '../format';
import { roundToCents } from '../plan-chain';
import { toIsoDate } from '../weeks';
import type { ExcelNumberStyle } from './number-formats';

/**
 * The money of an export, in the user's currency at the rate the screens use (docs/metrics.md
 * "Currency": the latest rate valid today, for every figure). `missing` names a chosen currency
 * that has no rate valid today: the file is then in dollars and says so, as the screens do.
 */
export type ExportCurrency = { rate: AppliedRate; missing: DisplayCurrency | null };

const DOLLARS: AppliedRate = { currency: BASE_CURRENCY, rate: 1, validFrom: null };

export function exportCurrencyOf(
  rates: readonly ExchangeRate[],
  currency: DisplayCurrency,
  today: Date,
): ExportCurrency {
  const rate = rateOn(rates, currency, toIsoDate(today));
  return rate ? { rate, missing: null } : { rate: DOLLARS, missing: currency };
}

/**
 * A dollar figure of the export in its currency, to the cent. The figure is converted as it is
 * written, after the server summed it, so an exported total is the converted sum of its parts.
 */
export function exportMoney(dollars: number | null, currency: ExportCurrency): number | null {
  return dollars === null ? null : roundToCents(convertFromBase(dollars, currency.rate));
}

/** What the file says about its money, e.g. "EUR, converted from USD at 0.8640 EUR per USD (rate valid from 2026-07-01)". */
export function currencyStatement(currency: ExportCurrency): string {
  const code = currency.rate.currency.toUpperCase();
  if (currency.missing)
    return `USD: no ${currency.missing.toUpperCase()} exchange rate is valid today, so amounts are in US dollars`;
  if (currency.rate.currency === BASE_CURRENCY) return 'USD (US dollars, as stored)';
  return `${code}, converted from USD at ${currency.rate.rate.toFixed(4)} ${code} per USD (rate valid from ${currency.rate.validFrom})`;
}

/**
 * What an export takes from the user's settings: the currency and rate of money, how digits
 * group, and how date cells read (both of the setting's patterns are Excel date formats as written).
 */
export type ExportLocale = { currency: ExportCurrency; numberFormat: NumberFormat; dateFormat: DateFormat };

/** Money cells: the export currency's symbol, 2 decimals, grouped as the user reads numbers. */
export const moneyStyle = (locale: Pick<ExportLocale, 'currency' | 'numberFormat'>): ExcelNumberStyle => ({
  numberFormat: locale.numberFormat,
  decimals: 2,
  currency: locale.currency.rate.currency,
});
