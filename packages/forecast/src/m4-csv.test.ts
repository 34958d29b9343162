import { describe, expect, it } from 'vitest';
import { formatM4Csv, parseM4Csv, splitCsvLine } from './m4-csv';

describe('M4 CSV', () => {
  it('splits quoted cells, including doubled quotes', () => {
    expect(splitCsvLine('"W1","1.5",2,,')).toEqual(['W1', '1.5', '2', '', '']);
    expect(splitCsvLine('"a ""b"", c",1')).toEqual(['a "b", c', '1']);
  });
  it('reads rows of different lengths, ignoring trailing empty cells', () => {
    const text = '"V1","V2","V3","V4"\n"W1","1","2","3"\n"W2","4.5",,\n';
    expect(parseM4Csv(text)).toEqual([
      { id: 'W1', values: [1, 2, 3] },
      { id: 'W2', values: [4.5] },
    ]);
  });
  it('rejects a value that is not a number', () => {
    expect(() => parseM4Csv('"V1","V2"\n"W1","x"\n')).toThrow(/not a number/);
  });
  it('writes what it reads', () => {
    const rows = [
      { id: 'A', values: [1.25, 2] },
      { id: 'B', values: [3] },
    ];
    const text = formatM4Csv(rows);
    expect(text.split('\n')[0]).toBe('"V1","V2","V3"');
    expect(parseM4Csv(text)).toEqual(rows);
  });
});
