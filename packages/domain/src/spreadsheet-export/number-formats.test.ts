import { describe, expect, it } from 'vitest';
import { formatCurrency, formatNumber } from '../format';
import {
  excelNumberFormat,
  indianSeparators,
  standardExcelFormat,
  type ExcelNumberStyle,
} from './number-formats';

const inrMoney: ExcelNumberStyle = { numberFormat: 'indian', decimals: 2, currency: 'inr' };
const indianUnits: ExcelNumberStyle = { numberFormat: 'indian', decimals: 0 };

/**
 * What a spreadsheet shows for a value in one of these formats, enough to check the grouping: the
 * section is chosen by its [>=x] condition (the last section is the default); a one-section
 * format puts the minus in front; a two-section format without conditions uses the second for
 * negatives, as written. Digits fill the # and 0 placeholders from the right and the leftmost
 * placeholder takes the rest; \, is a literal comma, "…" literal text, `,` between placeholders
 * the thousands separator.
 */
function render(format: string, value: number): string {
  const sections = format.split(';');
  let section = sections[0]!;
  let sign = value < 0 ? '-' : '';
  if (sections.some((s) => s.startsWith('[>='))) {
    const chosen = sections.find((s) => {
      const limit = /^\[>=([\d.]+)\]/.exec(s);
      return limit ? value >= Number(limit[1]) : true;
    })!;
    section = chosen.replace(/^\[>=[\d.]+\]/, '');
  } else if (sections.length === 2 && value < 0) {
    section = sections[1]!;
    sign = '';
  }
  section = section.replace('[Red]', '');
  const [integerPart, decimalsPart = ''] = section.split('.');
  const decimals = decimalsPart.replace(/[^0]/g, '').length;
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split('.');
  if (!/\\,/.test(integerPart!)) {
    const prefix = /"([^"]*)"/.exec(integerPart!)?.[1] ?? '';
    const minus = integerPart!.startsWith('-') ? '-' : '';
    const grouped = formatNumber(Number(whole), { numberFormat: 'us' });
    return `${sign}${minus}${prefix}${grouped}${fraction ? `.${fraction}` : ''}`;
  }
  const prefix = /"([^"]*)"/.exec(integerPart!)?.[1] ?? '';
  const pattern = integerPart!.replace(/"[^"]*"/g, '').replaceAll('\\,', ',');
  const digits = whole!.split('');
  let out = '';
  let placeholdersLeft = (pattern.match(/[#0]/g) ?? []).length;
  for (let i = pattern.length - 1; i >= 0; i -= 1) {
    const c = pattern[i]!;
    if (c === ',') {
      out = `,${out}`;
      continue;
    }
    placeholdersLeft -= 1;
    if (placeholdersLeft === 0) out = digits.join('') + out;
    else out = (digits.pop() ?? '') + out;
  }
  return `${sign}${prefix}${out}${fraction ? `.${fraction}` : ''}`;
}

describe('Excel number formats', () => {
  it('keeps the US formats: thousands, the currency symbol, negatives red with a minus', () => {
    expect(standardExcelFormat({ numberFormat: 'us', decimals: 2, currency: 'usd' })).toBe(
      '"$"#,##0.00;[Red]-"$"#,##0.00',
    );
    expect(excelNumberFormat(-1_234_567, { numberFormat: 'us', decimals: 0 })).toBe('#,##0');
    expect(excelNumberFormat(12.5, { numberFormat: 'us', decimals: 2, currency: 'eur' })).toBe(
      '"€"#,##0.00;[Red]-"€"#,##0.00',
    );
  });

  it('groups lakh and crore with conditions, for money with the symbol and for units', () => {
    expect(standardExcelFormat(inrMoney)).toBe(
      '[>=9999999.995]"₹"##\\,##\\,##\\,##0.00;[>=99999.995]"₹"##\\,##\\,##0.00;"₹"#,##0.00',
    );
    expect(standardExcelFormat(indianUnits)).toBe(
      '[>=9999999.5]##\\,##\\,##\\,##0;[>=99999.5]##\\,##\\,##0;#,##0',
    );
    expect(excelNumberFormat(1_234_567.89, inrMoney)).toBe(standardExcelFormat(inrMoney));
    expect(excelNumberFormat(null, indianUnits)).toBe(standardExcelFormat(indianUnits));
  });

  it('counts the commas of the Indian grouping after rounding', () => {
    expect(
      [999, 1_000, 99_999, 100_000, 9_999_999, 10_000_000, 1e9].map((v) => indianSeparators(v, 0)),
    ).toEqual([0, 1, 1, 2, 2, 3, 4]);
    // 99,999.996 shows as 1,00,000.00
    expect(indianSeparators(99_999.996, 2)).toBe(2);
    expect(indianSeparators(-12_34_567.89, 2)).toBe(2);
  });

  it('goes a group up from 100 crore and gives negatives one section for their size', () => {
    expect(excelNumberFormat(1_234_567_890.12, inrMoney)).toBe(
      '[>=999999999.995]"₹"##\\,##\\,##\\,##\\,##0.00;[>=9999999.995]"₹"##\\,##\\,##\\,##0.00;"₹"#,##0.00',
    );
    expect(excelNumberFormat(-1_234_567.89, inrMoney)).toBe('[Red]"₹"##\\,##\\,##0.00');
    expect(excelNumberFormat(-12_345_678, indianUnits)).toBe('##\\,##\\,##\\,##0');
    // Below a lakh both systems group alike: the US format, whose minus is written out.
    expect(excelNumberFormat(-5_000, inrMoney)).toBe('"₹"#,##0.00;[Red]-"₹"#,##0.00');
  });

  it('shows every size as the screens do: 12,34,567.89, -1,23,45,678, 1,23,45,67,890.12', () => {
    const values = [
      0, 7, 999.5, 1_000, 54_321.4, 99_999.994, 99_999.996, 100_000, 1_234_567.89, 9_999_999.99, 10_000_000,
      123_456_789.5, 999_999_999.99, 1_234_567_890.12, 987_654_321_012.34, 4.2e13,
    ];
    for (const value of [...values, ...values.map((v) => -v)]) {
      const money = render(excelNumberFormat(value, inrMoney), value);
      expect(money, `${value}`).toBe(formatCurrency(value, { currency: 'inr', numberFormat: 'indian' }));
      const units = render(excelNumberFormat(value, indianUnits), value);
      expect(units, `${value}`).toBe(formatNumber(value, { numberFormat: 'indian' }));
    }
  });
});
