import { describe, expect, it } from 'vitest';
import {
  formatDashboardCurrency,
  formatMoneyCell,
  formatPercentCell,
  formatScaledCurrency,
  formatSignedPercent,
  formatSignedThousands,
} from './display';

describe('spec §9 display formats', () => {
  it('money cells: $ with 2 decimals', () => {
    expect(formatMoneyCell(1234.5)).toBe('$1,234.50');
    expect(formatMoneyCell(0)).toBe('$0.00');
    expect(formatMoneyCell(1234567.891, { numberFormat: 'indian', currency: 'inr' })).toBe('₹12,34,567.89');
  });

  it('percent cells: 2 decimals', () => {
    expect(formatPercentCell(12.345)).toBe('12.35%');
    expect(formatPercentCell(-5)).toBe('-5.00%');
    expect(formatPercentCell(null)).toBe('');
  });

  it('dashboard currency: value × 10, no decimals', () => {
    expect(formatDashboardCurrency(123456.7)).toBe('$1,234,567');
    expect(formatDashboardCurrency(123456.7, { numberFormat: 'indian' })).toBe('$12,34,567');
    expect(formatDashboardCurrency(-50.04)).toBe('-$500');
  });

  it('signed percent: one decimal, plus sign when positive', () => {
    expect(formatSignedPercent(5.25)).toBe('+5.3%');
    expect(formatSignedPercent(-2)).toBe('-2.0%');
    expect(formatSignedPercent(0)).toBe('0.0%');
    expect(formatSignedPercent(-0.04)).toBe('0.0%');
  });

  it('net impact: signed thousands with a K suffix', () => {
    expect(formatSignedThousands(12345)).toBe('+$12.3K');
    expect(formatSignedThousands(-800)).toBe('-$0.8K');
    expect(formatSignedThousands(0)).toBe('$0.0K');
    expect(formatSignedThousands(1234567)).toBe('+$1,234.6K');
  });
});

describe('control tower scaled money (spec §9)', () => {
  it('one decimal below 10 in the scale, none from 10 on, in the chosen currency', () => {
    expect(formatScaledCurrency(1_234_567, 'M')).toBe('$1.2M');
    expect(formatScaledCurrency(12_345_678, 'M')).toBe('$12M');
    expect(formatScaledCurrency(-2_450, 'K')).toBe('-$2.5K');
    expect(formatScaledCurrency(3_900_000_000, 'B', { currency: 'eur' })).toBe('€3.9B');
    expect(formatScaledCurrency(125_000_000, 'M', { currency: 'inr', numberFormat: 'indian' })).toBe('₹125M');
    expect(formatScaledCurrency(null, 'K')).toBe('');
  });
});
