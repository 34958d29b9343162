import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplePack } from '../seed/sample-data-pack';

/**
 * Writes the sample data pack (docs/data-integration.md) for the current week:
 * `npm run sample-data -- [folder]` (default docs/sample-data).
 */
const folder = process.argv[2] ?? 'docs/sample-data';
mkdirSync(folder, { recursive: true });
for (const [name, text] of Object.entries(samplePack(new Date()))) {
  writeFileSync(join(folder, name), text);
  console.log(`wrote ${join(folder, name)}`);
}
