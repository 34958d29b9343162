import type { UserSettings } from '../user-settings';

/** Every amount in the data is stored in US dollars (docs/metrics.md, "Currency"). */
export const BASE_CURRENCY = 'usd';

export type DisplayCurrency = UserSettings['currency'];
export type ForeignCurrency = Exclude<DisplayCurrency, typeof BASE_CURRENCY>;
export const FOREIGN_CURRENCIES = ['eur', 'inr', 'gbp'] as const satisfies readonly ForeignCurrency[];

/** Units of `currency` for one US dollar, from `validFrom` (yyyy-mm-dd) until the next rate. */
export type ExchangeRate = {
  currency: ForeignCurrency;
  validFrom: string;
  rate: number;
};

/** The rate money is shown with: a currency's rate and the date it became valid. */
export type AppliedRate = { currency: DisplayCurrency; rate: number; validFrom: string | null };

const BASE_RATE: AppliedRate = { currency: BASE_CURRENCY, rate: 1, validFrom: null };

/**
 * The rate valid on `asOf` (yyyy-mm-dd): the latest one that starts on or before it. Dollars need
 * none; a currency with no rate yet valid has no rate (the caller shows dollars and says so).
 */
export function rateOn(
  rates: readonly ExchangeRate[],
  currency: DisplayCurrency,
  asOf: string,
): AppliedRate | undefined {
  if (currency === BASE_CURRENCY) return BASE_RATE;
  let best: ExchangeRate | undefined;
  for (const candidate of rates) {
    if (candidate.currency !== currency || candidate.validFrom > asOf) continue;
    if (!best || candidate.validFrom > best.validFrom) best = candidate;
  }
  return best && { currency, rate: best.rate, validFrom: best.validFrom };
}

/**
 * A dollar amount in the display currency. Conversion is applied to a figure as shown, after any
 * summing, so a total is the converted sum of its parts (never a sum of separately rounded parts).
 */
export function convertFromBase(amount: number, rate: Pick<AppliedRate, 'rate'>): number {
  return amount * rate.rate;
}
