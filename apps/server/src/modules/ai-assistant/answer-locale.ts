import {
  CURRENCY_SYMBOLS,
  convertFromBase,
  formatCurrency,
  formatDate,
  formatNumber,
  rateOn,
  type AnswerLocale,
  type ExchangeRate,
  type ResolvedPeriod,
} from '@ps/domain';
import i18next, { type TFunction } from 'i18next';
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };

/**
 * The offline analyst's and help insights' words and number formats in the user's language
 *: texts from the i18next catalogues in ./locales, numbers and dates through the shared
 * formatters with the user's number and date format, money converted to the user's currency at
 * the rate valid today (docs/metrics.md "Currency").
 */
export const ANSWER_LANGUAGES = { english: 'en', spanish: 'es', french: 'fr', german: 'de' } as const;
export const CATALOGUES = { en, es, fr, de };

const catalogues = i18next.createInstance();
void catalogues.init({
  resources: Object.fromEntries(
    Object.entries(CATALOGUES).map(([language, catalogue]) => [language, { ai: catalogue }]),
  ),
  lng: 'en',
  fallbackLng: 'en',
  ns: ['ai'],
  defaultNS: 'ai',
  // Answers are Markdown the drawer renders as elements, never HTML: nothing to escape here.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export const DEFAULT_LOCALE: AnswerLocale = {
  language: 'english',
  numberFormat: 'us',
  dateFormat: 'mm/dd/yyyy',
  currency: 'usd',
};

export type Speaker = {
  t: TFunction;
  number: (value: number, decimals: number) => string;
  units: (value: number) => string;
  /** Money without cents (answers speak in whole amounts; per-record figures keep their cents). */
  money: (value: number, decimals?: number) => string;
  signedUnits: (value: number) => string;
  signedMoney: (value: number) => string;
  /** 12.3% (one decimal unless said); "n/a" without a value. */
  percent: (value: number | null, decimals?: number) => string;
  /** +12.3% / −4.0%. */
  signedPercent: (value: number | null) => string;
  date: (iso: string) => string;
  /** A quarter as 2026-Q3, a year as 2026, a month by its name in the user's language, other weeks as first – last day; null = all weeks. */
  period: (period: ResolvedPeriod | null) => string;
  /** Said once in the data note when the user's currency has no rate valid today (dollars shown). */
  missingRate: string | null;
};

const sign = (value: number) => (value > 0 ? '+' : value < 0 ? '−' : '');

export function speakerFor(
  locale: AnswerLocale | undefined,
  rates: readonly ExchangeRate[],
  today: string,
): Speaker {
  const { language, numberFormat, dateFormat, currency } = locale ?? DEFAULT_LOCALE;
  const lng = ANSWER_LANGUAGES[language];
  const t = catalogues.getFixedT(lng);
  const rate = rateOn(rates, currency, today);
  const shown = rate ?? rateOn([], 'usd', today)!;
  const number = (value: number, decimals = 0) => formatNumber(value, { numberFormat, decimals });
  const money = (value: number, decimals = 0) =>
    formatCurrency(convertFromBase(value, shown), { currency: shown.currency, numberFormat, decimals });
  const percent = (value: number | null, decimals = 1) =>
    value === null ? t('na') : `${number(value, decimals)}%`;
  const months = new Intl.DateTimeFormat(lng, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return {
    t,
    number,
    units: (value) => number(value),
    money,
    signedUnits: (value) => `${sign(value)}${number(Math.abs(value))}`,
    signedMoney: (value) => `${sign(value)}${money(Math.abs(value))}`,
    percent,
    signedPercent: (value) => (value === null ? t('na') : `${sign(value)}${percent(Math.abs(value))}`),
    date: (iso) => formatDate(iso, dateFormat),
    period: (period) => {
      if (period === null) return t('scope.allWeeks');
      if (/^\d{4}(-Q[1-4])?$/.test(period.label)) return period.label;
      const from = new Date(`${period.from}T00:00:00Z`);
      const to = new Date(`${period.to}T00:00:00Z`);
      const oneMonth =
        from.getUTCDate() === 1 &&
        to.getUTCDate() === 1 &&
        to.getUTCFullYear() * 12 + to.getUTCMonth() - (from.getUTCFullYear() * 12 + from.getUTCMonth()) === 1;
      if (oneMonth) return months.format(from);
      // Any other run of weeks: its first and last day.
      const last = new Date(to.getTime() - 86_400_000).toISOString().slice(0, 10);
      return `${formatDate(period.from, dateFormat)} – ${formatDate(last, dateFormat)}`;
    },
    missingRate: rate ? null : t('missingRate', { currency: CURRENCY_SYMBOLS[currency] }),
  };
}

/** Percent change, 1 decimal; null without a base. */
export const changePercent = (value: number, base: number): number | null =>
  base === 0 ? null : Math.round(((value - base) / Math.abs(base)) * 1000) / 10;

/**
 * Text that comes from the data (names, reason codes, comments) is shown as data: characters
 * that would format the answer (table bars, bold marks, line breaks) are neutralised.
 */
export const asData = (text: string | null | undefined): string =>
  (text ?? '')
    .replace(/[|*\r\n`#]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
