import { describe, expect, it } from 'vitest';
import { overrideSupersededBy } from './planning-grid-overrides';

const none = {
  Rev_Pln_Ovrd_Percent: null,
  Rev_Pln_Ovrd_Units: null,
  SOP_Pln_Ovrd_Percent: null,
  SOP_Pln_Ovrd_Units: null,
};

describe('overrideSupersededBy', () => {
  it('says the units override applies when a stage carries both', () => {
    const both = { ...none, Rev_Pln_Ovrd_Percent: 10, Rev_Pln_Ovrd_Units: 120 };
    expect(overrideSupersededBy(both, 'Rev_Pln_Ovrd_Percent')).toBe('Rev_Pln_Ovrd_Units');
    expect(overrideSupersededBy(both, 'Rev_Pln_Ovrd_Units')).toBeNull();
    // The other stage is independent.
    expect(overrideSupersededBy({ ...both, SOP_Pln_Ovrd_Percent: 5 }, 'SOP_Pln_Ovrd_Percent')).toBeNull();
    expect(
      overrideSupersededBy(
        { ...none, SOP_Pln_Ovrd_Percent: 0, SOP_Pln_Ovrd_Units: 0 },
        'SOP_Pln_Ovrd_Percent',
      ),
    ).toBe('SOP_Pln_Ovrd_Units');
  });

  it('leaves a lone percent, and fields that are not overrides, in effect', () => {
    expect(overrideSupersededBy({ ...none, Rev_Pln_Ovrd_Percent: 10 }, 'Rev_Pln_Ovrd_Percent')).toBeNull();
    expect(overrideSupersededBy(none, 'Comments')).toBeNull();
  });
});
