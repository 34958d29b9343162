import { describe, expect, it } from 'vitest';
import { convertFromBase, rateOn, type ExchangeRate } from './exchange-rates';

const rates: ExchangeRate[] = [
  { currency: 'eur', validFrom: '2026-01-01', rate: 0.859 },
  { currency: 'eur', validFrom: '2026-07-01', rate: 0.864 },
  { currency: 'inr', validFrom: '2026-07-01', rate: 88.72 },
];

describe('rateOn', () => {
  it('takes the latest rate that starts on or before the date', () => {
    expect(rateOn(rates, 'eur', '2026-11-22')).toEqual({
      currency: 'eur',
      rate: 0.864,
      validFrom: '2026-07-01',
    });
    expect(rateOn(rates, 'eur', '2026-06-30')).toEqual({
      currency: 'eur',
      rate: 0.859,
      validFrom: '2026-01-01',
    });
    expect(rateOn(rates, 'eur', '2026-07-01')?.rate).toBe(0.864);
  });

  it('needs no rate for dollars and has none before the first rate or for a currency without one', () => {
    expect(rateOn([], 'usd', '2026-11-22')).toEqual({ currency: 'usd', rate: 1, validFrom: null });
    expect(rateOn(rates, 'inr', '2026-06-30')).toBeUndefined();
    expect(rateOn(rates, 'gbp', '2026-11-22')).toBeUndefined();
  });
});

describe('convertFromBase', () => {
  it('converts the sum, so a total equals the converted total of its parts', () => {
    // $1,000,000 at 0.864 EUR per USD is €864,000, not a relabelled €1,000,000.
    expect(convertFromBase(1_000_000, { rate: 0.864 })).toBeCloseTo(864_000, 6);
    const parts = [1234.56, 7890.12, 0.07];
    const total = parts.reduce((sum, part) => sum + part, 0);
    // 9124.75 × 88.72 = 809,547.82
    expect(convertFromBase(total, { rate: 88.72 })).toBeCloseTo(809_547.82, 2);
  });
});
