import { describe, expect, it } from 'vitest';
import { describeDateCell } from '../utils/date-markers';

describe('describeDateCell', () => {
  it('reads calendar dates, Time_Series_sk keys and timestamps', () => {
    expect(describeDateCell('2026-11-15')).toEqual({ kind: 'valid', date: new Date(Date.UTC(2026, 10, 15)) });
    expect(describeDateCell('20261115')).toEqual({ kind: 'valid', date: new Date(Date.UTC(2026, 10, 15)) });
    expect(describeDateCell('2026-11-15T10:30:00.000Z')).toMatchObject({ kind: 'valid' });
  });
  it('leaves empty values empty', () => {
    expect(describeDateCell(null)).toEqual({ kind: 'empty' });
    expect(describeDateCell('')).toEqual({ kind: 'empty' });
  });
  it("marks a date-shaped value naming no real day 'Invalid Date'", () => {
    expect(describeDateCell('2026-02-30')).toEqual({ kind: 'marker', label: 'Invalid Date' });
    expect(describeDateCell('20261340')).toEqual({ kind: 'marker', label: 'Invalid Date' });
  });
  it("marks an implausible year 'Corrupted Date'", () => {
    expect(describeDateCell('0001-01-01')).toEqual({ kind: 'marker', label: 'Corrupted Date' });
    expect(describeDateCell('9999-12-31T00:00:00Z')).toEqual({ kind: 'marker', label: 'Corrupted Date' });
  });
  it("marks text that is no date at all 'Parse Error'", () => {
    expect(describeDateCell('next tuesday')).toEqual({ kind: 'marker', label: 'Parse Error' });
    expect(describeDateCell(45000)).toEqual({ kind: 'marker', label: 'Parse Error' });
  });
});
