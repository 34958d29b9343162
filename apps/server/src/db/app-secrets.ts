import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * The secret of this name, created on first use (32 random bytes). Processes that start
 * together race on the insert; `on conflict do nothing` lets the first win and all read its value.
 */
export async function loadOrCreateSecret(db: Kysely<Database>, name: string): Promise<Buffer> {
  await sql`insert into app_secrets (name, value) values (${name}, ${randomBytes(32).toString('hex')})
    on conflict (name) do nothing`.execute(db);
  const { rows } = await sql<{ value: string }>`select value from app_secrets where name = ${name}`.execute(
    db,
  );
  return Buffer.from(rows[0]!.value, 'hex');
}
