import { describe, expect, it } from 'vitest';
import { parseActualsCsv } from './actuals-csv-loader';

describe('the cycle’s actuals CSV', () => {
  it('reads PID, Week and Units under any case or alias, skipping blank lines', () => {
    expect(
      parseActualsCsv(
        '\uFEFFSKU,Week_Start,Act_Bkg_Units\r\nPRD-1,2026-11-22,12.5\r\n\r\n"PRD-2",2026-11-22,0\n',
      ),
    ).toEqual([
      { pid: 'PRD-1', weekStart: '2026-11-22', units: 12.5 },
      { pid: 'PRD-2', weekStart: '2026-11-22', units: 0 },
    ]);
  });

  it('refuses the whole file, naming each bad row', () => {
    expect(() =>
      parseActualsCsv(
        'PID,Week,Units\nA,2026-11-23,1\nB,22/11/2026,1\n,2026-11-22,1\nC,2026-11-22,-1\nD,2026-11-22,\n',
      ),
    ).toThrow(
      'row 2: Week must be a Sunday (weeks start on Sunday); row 3: Week must be a date as yyyy-mm-dd; row 4: PID is empty; row 5: Units must be a number of at least 0; row 6: Units must be a number of at least 0',
    );
  });

  it('names the missing columns', () => {
    expect(() => parseActualsCsv('PID,Quantity\n')).toThrow(
      'The header has no week, units column (PID, Week, Units)',
    );
  });
});
