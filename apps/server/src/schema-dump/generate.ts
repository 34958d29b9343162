import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { migrateToLatest, openDatabase } from '../db/database';
import { readCatalogue } from './catalogue';
import { kyselyTypes } from './kysely-types';
import { repositoryQueries } from './repository-queries';
import { schemaSql } from './schema-sql';

/** Folder of apps/server/src, where every generated file lives. */
const SRC = fileURLToPath(new URL('../', import.meta.url));

export const SCHEMA_SQL = `${SRC}db/schema.sql`;
export const SCHEMA_TYPES = `${SRC}db/schema.generated.ts`;
export const QUERIES_DIR = `${SRC}queries/`;

/** Formats TypeScript the way `npm run format` would, so the check accepts the file as written. */
async function prettierTs(text: string, path: string): Promise<string> {
  const options = await resolveConfig(path);
  return format(text, { ...options, filepath: path });
}

/**
 * Every generated file (absolute path → content): the dumped schema, the Kysely types read from
 * it and the SQL of each repository's queries. Migrates a fresh in-memory PGlite, so the result
 * depends on the migrations and the repositories only.
 */
export async function generateSchemaFiles(): Promise<Map<string, string>> {
  const handle = openDatabase({ kind: 'pglite' });
  try {
    await migrateToLatest(handle.db);
    const catalogue = await readCatalogue(handle.db);
    const files = new Map<string, string>();
    files.set(SCHEMA_SQL, schemaSql(catalogue));
    files.set(SCHEMA_TYPES, await prettierTs(kyselyTypes(catalogue), SCHEMA_TYPES));
    for (const [repository, text] of await repositoryQueries())
      files.set(`${QUERIES_DIR}${repository}.sql`, text);
    return files;
  } finally {
    await handle.close();
  }
}
