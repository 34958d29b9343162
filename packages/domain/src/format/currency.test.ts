import { describe, expect, it } from 'vitest';
import { formatCurrency } from './currency';

describe('formatCurrency', () => {
  it('uses the symbol of each currency with 2 decimals by default', () => {
    expect(formatCurrency(1234.5)).toBe('$1,234.50');
    expect(formatCurrency(1234.5, { currency: 'eur' })).toBe('€1,234.50');
    expect(formatCurrency(1234.5, { currency: 'gbp' })).toBe('£1,234.50');
    expect(formatCurrency(1234567.891, { currency: 'inr', numberFormat: 'indian' })).toBe('₹12,34,567.89');
  });

  it('puts the minus sign before the symbol', () => {
    expect(formatCurrency(-1234.5)).toBe('-$1,234.50');
  });

  it('drops the sign when the value rounds to zero', () => {
    expect(formatCurrency(-0.004)).toBe('$0.00');
  });

  it('honours a decimals option', () => {
    expect(formatCurrency(99.5, { decimals: 0 })).toBe('$100');
  });

  it('shows nothing for missing values', () => {
    expect(formatCurrency(null)).toBe('');
  });
});
