import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generateSchemaFiles, QUERIES_DIR } from '../schema-dump/generate';

// Writes the schema dump, the Kysely types and the repositories' SQL; a query file whose
// repository left the list is removed so the folder says exactly what runs.
const files = await generateSchemaFiles();
mkdirSync(QUERIES_DIR, { recursive: true });
for (const name of readdirSync(QUERIES_DIR)) {
  if (!files.has(`${QUERIES_DIR}${name}`)) rmSync(`${QUERIES_DIR}${name}`);
}
for (const [path, text] of files) {
  writeFileSync(path, text);
  console.log(`wrote ${relative(process.cwd(), path)}`);
}
