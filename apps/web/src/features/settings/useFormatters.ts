import {
  formatCurrency,
  formatDashboardCurrency,
  formatDate,
  formatDateTime,
  formatMoneyCell,
  formatNumber,
  formatPercentCell,
  formatSignedPercent,
  formatSignedThousands,
} from '@ps/domain';
import { useMemo } from 'react';
import { useUserSettings } from './useUserSettings';

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
  /** Calendar date in the user's date format. */
  date: (value: DateValue) => string;
  /** Date and 24-hour local time in the user's date format. */
  dateTime: (value: DateValue) => string;
};

/**
 * Every number, money value and date on screen goes through these, so the settings dialog's
 * number format, currency and date format change them everywhere. Null/NaN/invalid → ''.
 */
export function useFormatters(): Formatters {
  const { numberFormat, currency, dateFormat } = useUserSettings().settings;
  return useMemo<Formatters>(() => {
    const display = { numberFormat, currency };
    return {
      number: (value, decimals = 0) => formatNumber(value, { numberFormat, decimals }),
      currency: (value, decimals = 2) => formatCurrency(value, { ...display, decimals }),
      money: (value) => formatMoneyCell(value, display),
      percent: (value) => formatPercentCell(value, display),
      dashboardCurrency: (value) => formatDashboardCurrency(value, display),
      signedPercent: (value) => formatSignedPercent(value, display),
      signedThousands: (value) => formatSignedThousands(value, display),
      date: (value) => formatDate(value, dateFormat),
      dateTime: (value) => formatDateTime(value, dateFormat),
    };
  }, [numberFormat, currency, dateFormat]);
}
