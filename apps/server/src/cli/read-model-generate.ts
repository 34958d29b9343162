import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import {
  MIGRATIONS_DIR,
  generatedMigrationText,
  latestGeneratedMigration,
} from '../read-model/migration-file';

/**
 * Writes the read model's generated migration from the registry.
 *
 *   npm run read-model:generate                 rewrites the newest generated migration (not yet shipped)
 *   npm run read-model:generate -- 0120-promo   writes a new one and registers it in migrations/index.ts
 *
 * A registry change after the newest generated migration shipped is a new one: its statements
 * (create or replace, add column if not exists) redefine what the earlier one defined.
 */
const name = process.argv[2];
const text = await generatedMigrationText();
const file = name ? `${name.replace(/\.ts$/, '')}.ts` : latestGeneratedMigration();
if (!file)
  throw new Error('no generated migration yet: name one (npm run read-model:generate -- 0100-read-model)');
const path = `${MIGRATIONS_DIR}${file}`;
writeFileSync(path, text);
console.log(`wrote ${relative(process.cwd(), path)}`);

const index = `${MIGRATIONS_DIR}index.ts`;
const source = readFileSync(index, 'utf8');
const key = file.replace(/\.ts$/, '');
if (!source.includes(`'./${key}'`)) {
  const id = key.replace(/^\d+-/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const lastImport = source.lastIndexOf('\nimport ');
  const importEnd = source.indexOf('\n', lastImport + 1);
  const withImport = `${source.slice(0, importEnd)}\nimport * as ${id} from './${key}';${source.slice(importEnd)}`;
  const registered = withImport.replace(/\n};\n/, `\n  '${key}': ${id},\n};\n`);
  writeFileSync(index, registered);
  console.log(`registered ${key} in ${relative(process.cwd(), index)}`);
}
