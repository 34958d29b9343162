import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it('takes the first letter of each word, uppercased', () => {
    expect(initialsOf('Avery Admin')).toBe('AA');
    expect(initialsOf('mary ann smith')).toBe('MAS');
    expect(initialsOf('  Cleo   Circor ')).toBe('CC');
  });

  it('handles single names, empty names and non-Latin letters', () => {
    expect(initialsOf('planner')).toBe('P');
    expect(initialsOf('')).toBe('');
    expect(initialsOf('émile zola')).toBe('ÉZ');
  });
});
