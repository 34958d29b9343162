import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSchemaFiles, QUERIES_DIR } from './generate';

const STALE = 'is stale: run `npm run schema:dump` and commit the result';

// The checked-in schema dump, Kysely types and repository SQL are what the migrations and the
// repositories produce today; a change to either shows up as a diff of these files in review.
describe('generated schema files', () => {
  it('match the migrations and the repositories', async () => {
    const files = await generateSchemaFiles();
    for (const [path, text] of files) {
      const name = relative(process.cwd(), path);
      expect(existsSync(path), `${name} is missing: run \`npm run schema:dump\``).toBe(true);
      expect(readFileSync(path, 'utf8') === text, `${name} ${STALE}`).toBe(true);
    }
    const orphans = readdirSync(QUERIES_DIR).filter((file) => !files.has(`${QUERIES_DIR}${file}`));
    expect(orphans, `queries/ holds files no repository writes: run \`npm run schema:dump\``).toEqual([]);
    // Migrating a fresh database takes most of this; a loaded CI machine needs the margin.
  }, 300_000);
});
