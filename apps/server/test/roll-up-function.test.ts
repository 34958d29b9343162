import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rollUpFunction } from '../src/db/migrations/0025-roll-up-deltas';
import { ENSEMBLE_VALUES, ensembleValue } from '../src/db/migrations/0031-ensemble-list-values';

/**
 * Migration 0025's trigger text is shared with migration 0031, which regenerates it with two more
 * sums. A shipped migration must keep generating what it shipped: the hash is that of the text
 * 0025 generated before the text was shared.
 */
describe('the roll-up trigger text', () => {
  it('is what migration 0025 shipped when no sums are added', () => {
    const text = rollUpFunction();
    expect(text).toHaveLength(47_744);
    expect(createHash('sha256').update(text).digest('hex')).toBe(
      'c66585c61f3431790eb76be05472cd51839a4286d6c5025c8d3e4cdfa9d5c8d7',
    );
  });

  it('adds each further sum as new minus old, to the inserted columns and the conflict update', () => {
    const text = rollUpFunction([{ column: 'extra_sum', value: (r) => `coalesce(${r}.x, 0)` }]);
    // Insert, update and delete: each of the three statements pairs, inserts and adds the sum.
    expect(text.match(/coalesce\(n\.x, 0\) - coalesce\(o\.x, 0\) as extra_sum/g)).toHaveLength(3);
    expect(text.match(/sum\(extra_sum\)/g)).toHaveLength(3);
    expect(text.match(/extra_sum = t\.extra_sum \+ excluded\.extra_sum/g)).toHaveLength(3);
  });

  it('values the statistical forecast at the product price and cost with one SQL function', () => {
    expect(ENSEMBLE_VALUES.map((v) => [v.column, ensembleValue('r', 'p', v.amount)])).toEqual([
      ['ensemble_fcst_rev_dlrs', 'coalesce(list_value(r.ensemble_fcst_units, p.unit_price), 0)'],
      ['ensemble_fcst_cost', 'coalesce(list_value(r.ensemble_fcst_units, p.unit_cost), 0)'],
    ]);
  });
});
