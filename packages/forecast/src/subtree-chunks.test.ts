import { describe, expect, it } from 'vitest';
import { chunkBySubtree } from './subtree-chunks';

describe('chunks of whole subtrees', () => {
  const units = [
    { key: 'b', products: ['b1', 'b2', 'b3'] },
    { key: 'd', products: ['d1'] },
    { key: 'a', products: ['a1', 'a2'] },
    { key: 'c', products: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'] },
  ];

  it('packs units in key order up to the size; a larger unit is a chunk of its own', () => {
    // a (2) + b (3) fill 5; c (6) alone, though larger; d (1) starts the last.
    expect(chunkBySubtree(units, 5)).toEqual([
      ['a1', 'a2', 'b1', 'b2', 'b3'],
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'],
      ['d1'],
    ]);
  });

  it('never splits a unit, and gives the same chunks whatever order the units come in', () => {
    expect(chunkBySubtree([...units].reverse(), 5)).toEqual(chunkBySubtree(units, 5));
    expect(chunkBySubtree(units, 1)).toEqual([
      ['a1', 'a2'],
      ['b1', 'b2', 'b3'],
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'],
      ['d1'],
    ]);
    expect(chunkBySubtree([{ key: 'e', products: [] }], 5)).toEqual([]);
  });
});
