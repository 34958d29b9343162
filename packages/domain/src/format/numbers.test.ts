import { describe, expect, it } from 'vitest';
import { formatNumber, groupDigits, roundTo } from './numbers';

describe('roundTo', () => {
  it('rounds half away from zero on the decimal text', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(roundTo(0.125, 2)).toBe(0.13);
  });

  it('copes with numbers printed in exponent form', () => {
    expect(roundTo(1e-7, 2)).toBe(0);
    expect(roundTo(1.5e21, 0)).toBe(1.5e21);
  });
});

describe('groupDigits', () => {
  it('groups in threes for us', () => {
    expect(groupDigits('1', 'us')).toBe('1');
    expect(groupDigits('999', 'us')).toBe('999');
    expect(groupDigits('1000', 'us')).toBe('1,000');
    expect(groupDigits('1234567', 'us')).toBe('1,234,567');
    expect(groupDigits('123456789', 'us')).toBe('123,456,789');
  });

  it('groups three then twos for indian', () => {
    expect(groupDigits('1000', 'indian')).toBe('1,000');
    expect(groupDigits('100000', 'indian')).toBe('1,00,000');
    expect(groupDigits('1234567', 'indian')).toBe('12,34,567');
    expect(groupDigits('123456789', 'indian')).toBe('12,34,56,789');
  });
});

describe('formatNumber', () => {
  it('formats us and indian numbers with fixed decimals', () => {
    expect(formatNumber(1234567.891, { numberFormat: 'us', decimals: 2 })).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, { numberFormat: 'indian', decimals: 2 })).toBe('12,34,567.89');
    expect(formatNumber(-98765.4, { numberFormat: 'indian', decimals: 1 })).toBe('-98,765.4');
  });

  it('defaults to us with no decimals', () => {
    expect(formatNumber(1234.5)).toBe('1,235');
    expect(formatNumber(0)).toBe('0');
  });

  it('never prints negative zero', () => {
    expect(formatNumber(-0.001, { decimals: 2 })).toBe('0.00');
  });

  it('shows nothing for missing or non-finite values', () => {
    expect(formatNumber(null)).toBe('');
    expect(formatNumber(undefined)).toBe('');
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('');
  });
});
