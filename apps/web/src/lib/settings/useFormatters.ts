import {
  CURRENCY_SYMBOLS,
  convertFromBase,
  formatCurrency,
  formatDashboardCurrency,
  formatDate,
  formatDateTime,
  formatMoneyCell,
  formatNumber,
  formatPercentCell,
  formatScaledCurrency,
  formatSignedPercent,
  formatSignedThousands,
  formatTrackerValue,
  rateOn,
  type AppliedRate,
  type MoneyScale,
} from '@ps/domain';
import { useMemo } from 'react';
import { useExchangeRates } from '@/lib/settings/useExchangeRates';
import { useUserSettings } from '@/lib/settings/useUserSettings';

type Value = number | null | undefined;
type DateValue = string | Date | null | undefined;

/** Formatters bound to the user's number format, currency and date format. */
export type Formatters = {
  /** Grouped number, `decimals` places (default 0). */
  number: (value: Value, decimals?: number) => string;
  /** Currency symbol + grouped number, `decimals` places (default 2). */
  currency: (value: Value, decimals?: number) => string;
  /** Spec §9 money cell: symbol, 2 decimals. */
  money: (value: Value) => string;
  /** Spec §9 percent cell: 2 decimals and '%'. */
  percent: (value: Value) => string;
  /** Spec §9 financial dashboard value: ×10, no decimals. */
  dashboardCurrency: (value: Value) => string;
  /** Spec §9 dashboard change: one decimal, '+' when positive. */
  signedPercent: (value: Value) => string;
  /** Spec §9 net impact: signed thousands with 'K'. */
  signedThousands: (value: Value) => string;
  /** Spec §9 control tower money: symbol, scale K, M or B, one decimal below 10. */
  scaled: (value: Value, scale: MoneyScale) => string;
  /** Spec §9 control tower tracker: converted, 5 decimals under 1 (not 0), else 2, '-' for none. */
  tracker: (value: Value) => string;
  /** A dollar amount in the display currency, unformatted (chart axes, sums shown elsewhere). */
  convert: (value: number) => number;
  /** Calendar date in the user's date format. */
  date: (value: DateValue) => string;
  /** Date and 24-hour local time in the user's date format. */
  dateTime: (value: DateValue) => string;
  /**
   * The rate money is shown with. Dollars until the rate table has loaded, and when the chosen
   * currency has no rate valid today (then `missingRate` is true and screens say so).
   */
  rate: AppliedRate;
  /** The symbol of the currency money is shown in, for labels such as "€M". */
  symbol: string;
  missingRate: boolean;
};

const DOLLARS: AppliedRate = { currency: 'usd', rate: 1, validFrom: null };

/**
 * Every number, money value and date on screen goes through these, so the settings dialog's
 * number format, currency and date format change them everywhere. Money is stored in US dollars
 * and converted here with the latest rate valid today (docs/metrics.md "Currency"): a total is
 * converted after it is summed. Null/NaN/invalid → ''.
 */
export function useFormatters(): Formatters {
  const { numberFormat, currency, dateFormat } = useUserSettings().settings;
  const rates = useExchangeRates();
  const found = rates ? rateOn(rates.rates, currency, rates.asOf) : currency === 'usd' ? DOLLARS : undefined;
  // Rates not loaded yet are not missing: the screen shows dollars for a moment, then converts.
  const missingRate = rates !== undefined && found === undefined;
  const { currency: rateCurrency, rate: rateValue, validFrom } = found ?? DOLLARS;
  // The formatters change only when what they show does: the rate table arriving leaves a user
  // of dollars with the same ones (the planning grid builds its columns from them).
  return useMemo<Formatters>(() => {
    const rate: AppliedRate = { currency: rateCurrency, rate: rateValue, validFrom };
    const display = { numberFormat, currency: rate.currency };
    const convert = (value: number) => convertFromBase(value, rate);
    const converted = (value: Value) => (typeof value === 'number' ? convert(value) : value);
    return {
      number: (value, decimals = 0) => formatNumber(value, { numberFormat, decimals }),
      currency: (value, decimals = 2) => formatCurrency(converted(value), { ...display, decimals }),
      money: (value) => formatMoneyCell(converted(value), display),
      percent: (value) => formatPercentCell(value, display),
      dashboardCurrency: (value) => formatDashboardCurrency(converted(value), display),
      signedPercent: (value) => formatSignedPercent(value, display),
      signedThousands: (value) => formatSignedThousands(converted(value), display),
      scaled: (value, scale) => formatScaledCurrency(converted(value), scale, display),
      tracker: (value) => formatTrackerValue(converted(value), numberFormat),
      convert,
      date: (value) => formatDate(value, dateFormat),
      dateTime: (value) => formatDateTime(value, dateFormat),
      rate,
      symbol: CURRENCY_SYMBOLS[rate.currency],
      missingRate,
    };
  }, [numberFormat, dateFormat, rateCurrency, rateValue, validFrom, missingRate]);
}
