import { describe, expect, it } from 'vitest';
import { NewSkuRecords } from './new-sku-records';

const WEEKS = ['2026-11-16', '2026-11-23', '2026-11-30', '2026-12-07'];
type Key = { forecast: number | null; override: number | null };

describe('new SKU records', () => {
  it('lists only the SKUs that get records, each record as indexes into SKUs, weeks and shapes', () => {
    let computed = 0;
    const records = new NewSkuRecords<Key, { units: number | null }>(
      WEEKS,
      (key) => {
        computed += 1;
        return { units: key.override ?? key.forecast };
      },
      (key) => `${key.forecast}|${key.override}`,
    );
    // A catalogue row adds nothing; a launch gets the weeks of its quarter.
    records.add('LAUNCH-1', 0, { forecast: 10, override: null });
    records.add('LAUNCH-1', 1, { forecast: 10, override: null });
    records.add('LAUNCH-2', 2, { forecast: 10, override: 7 });
    records.add('LAUNCH-2', 3, { forecast: 10, override: null });
    expect(records.pids).toEqual(['LAUNCH-1', 'LAUNCH-2']);
    expect(records.records).toEqual({ sku: [0, 0, 1, 1], week: [0, 1, 2, 3], shape: [0, 0, 1, 0] });
    expect(records.shapes).toEqual([{ units: 10 }, { units: 7 }]);
    expect(records.size).toBe(4);
    // Each distinct value is computed once, however many records share it.
    expect(computed).toBe(2);
  });

  it('is empty when no SKU has a record', () => {
    const records = new NewSkuRecords<Key, Key>(
      WEEKS,
      (key) => key,
      (key) => `${key.forecast}`,
    );
    expect(records.size).toBe(0);
    expect(records.pids).toEqual([]);
    expect(records.weeks).toBe(WEEKS);
  });
});
