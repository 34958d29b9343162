/** Number and text formatting of the assistant's answers (US English, the answers' language). */
const units = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

export const fmtUnits = (value: number): string => units.format(value);
export const fmtMoney = (value: number): string => dollars.format(value);
export const fmtPercent = (value: number | null): string =>
  value === null ? 'n/a' : `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;
export const fmtSigned = (value: number, format: (v: number) => string): string =>
  `${value > 0 ? '+' : value < 0 ? '−' : ''}${format(Math.abs(value))}`;

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
