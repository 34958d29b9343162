import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-body';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    // An escaped quote does not end the string.
    expect(nestsDeeperThan('["\\"[[[["]', 1)).toBe(false);
    expect(nestsDeeperThan('["\\\\",[[1]]]', 2)).toBe(true);
  });

  it('measures depth, not the number of siblings', () => {
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])), 3)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(5000)}${']'.repeat(5000)}`, 64)).toBe(true);
    expect(nestsDeeperThan('', 0)).toBe(false);
  });
});
