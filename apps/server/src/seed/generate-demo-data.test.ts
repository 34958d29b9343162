import { describe, expect, it } from 'vitest';
import { generateProductWeeks, planDemoProducts } from './generate-demo-data';

describe('demo data', () => {
  it('never dates an override after the current week began (no future update times)', () => {
    const anchor = new Date('2026-11-15T00:00:00Z');
    const options = { products: 30, weeks: 52, anchor, seed: 42 };
    const products = planDemoProducts(options);
    let overridden = 0;
    products.forEach((product, index) => {
      const { records, audit } = generateProductWeeks(product, index, options);
      for (const record of records) {
        if (record.last_updated_at === null || record.last_updated_at === undefined) continue;
        overridden += 1;
        expect(new Date(record.last_updated_at).getTime()).toBeLessThanOrEqual(anchor.getTime());
      }
      for (const row of audit)
        expect(new Date(row.changed_at!).getTime()).toBeLessThanOrEqual(anchor.getTime());
    });
    expect(overridden).toBeGreaterThan(0);
  });
});
