import { readFileSync } from 'node:fs';
import { DEMAND_RECORD_FIELDS, type FieldSpec } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { readModelStatements } from './generate-sql';
import { MIGRATIONS_DIR, generatedMigrationText, latestGeneratedMigration } from './migration-file';
import { isGrouped, readModelOf } from './registry';

describe('generated read-model migration', () => {
  it('matches the registry', async () => {
    const latest = latestGeneratedMigration();
    expect(latest, 'no generated migration: run `npm run read-model:generate -- <name>`').toBeDefined();
    const text = readFileSync(`${MIGRATIONS_DIR}${latest}`, 'utf8');
    expect(
      text === (await generatedMigrationText()),
      `${latest} is stale: run \`npm run read-model:generate\` (or name a new migration) and commit the result`,
    ).toBe(true);
  });

  it('carries a summed field added to the catalogue into every generated table that sums it', () => {
    const base = DEMAND_RECORD_FIELDS.find((s) => s.column === 'final_pln_units')!;
    // A field the record type does not have yet: the catalogue row is all the read model needs.
    const promo = {
      ...base,
      field: 'Promo_Units',
      column: 'promo_units',
      label: 'Promo units',
    } as unknown as FieldSpec;
    const model = readModelOf([...DEMAND_RECORD_FIELDS, promo]);
    const today = readModelStatements(readModelOf(DEMAND_RECORD_FIELDS).KEPT_TABLES.filter(isGrouped)).join(
      '\n',
    );
    const withPromo = readModelStatements(model.KEPT_TABLES.filter(isGrouped)).join('\n');
    expect(today).not.toContain('promo_units');
    // The slice totals: the columns added, the difference applied, the rebuild summing it.
    for (const line of [
      'alter table demand_slice_totals add column if not exists promo_units numeric not null default 0',
      'alter table demand_slice_totals add column if not exists promo_units_n bigint not null default 0',
      'coalesce(sum(w.change_sign * (w.promo_units)), 0) as promo_units',
      'promo_units = kept.promo_units + excluded.promo_units',
      'promo_units_n = kept.promo_units_n + excluded.promo_units_n',
      'coalesce(sum(w.promo_units), 0) as promo_units',
    ])
      expect(withPromo).toContain(line);
    // The week totals declare it: their measure reads the record column.
    expect(model.WEEK_TOTALS.measures.map((m) => m.of)).toContain('r.promo_units::numeric');
  });
});
