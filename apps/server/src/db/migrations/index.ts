import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './0001-initial-schema';

/** Versioned migrations, in order. Add new ones at the end; never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
