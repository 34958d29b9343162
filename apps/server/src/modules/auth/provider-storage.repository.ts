import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** One stored oidc-provider model instance, as the provider hands it over. */
export type ProviderPayload = Record<string, unknown>;

export type ProviderRecordKey = { model: string; id: string };

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Inserts or replaces a record; `expiresInSeconds` counts from the database clock, so every
 * process agrees on when it lapses.
 */
export async function upsertProviderRecord(
  db: Kysely<Database>,
  { model, id }: ProviderRecordKey,
  payload: ProviderPayload,
  expiresInSeconds: number | undefined,
): Promise<void> {
  const expiresAt =
    expiresInSeconds === undefined ? null : sql<Date>`now() + make_interval(secs => ${expiresInSeconds})`;
  const columns = {
    payload: JSON.stringify(payload),
    grant_id: stringOrNull(payload.grantId),
    uid: stringOrNull(payload.uid),
    user_code: stringOrNull(payload.userCode),
    expires_at: expiresAt,
    consumed_at: null,
  };
  await db
    .insertInto('oidc_provider_records')
    .values({ model, id, ...columns })
    .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(columns))
    .execute();
}

/** The unexpired record whose `column` equals `value`, with `consumed` (epoch seconds) when used. */
export async function findProviderRecord(
  db: Kysely<Database>,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<ProviderPayload | undefined> {
  const row = await db
    .selectFrom('oidc_provider_records')
    .select(['payload', sql<number | null>`floor(extract(epoch from consumed_at))::integer`.as('consumed')])
    .where('model', '=', model)
    .where(column, '=', value)
    .where((where) => where.or([where('expires_at', 'is', null), where('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirst();
  if (!row) return undefined;
  return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
}

export async function consumeProviderRecord(db: Kysely<Database>, key: ProviderRecordKey): Promise<void> {
  await db
    .updateTable('oidc_provider_records')
    .set({ consumed_at: sql<Date>`now()` })
    .where('model', '=', key.model)
    .where('id', '=', key.id)
    .execute();
}

export async function deleteProviderRecord(db: Kysely<Database>, key: ProviderRecordKey): Promise<void> {
  await db
    .deleteFrom('oidc_provider_records')
    .where('model', '=', key.model)
    .where('id', '=', key.id)
    .execute();
}

/** Removes every record of `model` issued under the grant (tokens and codes of a revoked grant). */
export async function deleteProviderRecordsOfGrant(
  db: Kysely<Database>,
  model: string,
  grantId: string,
): Promise<void> {
  await db
    .deleteFrom('oidc_provider_records')
    .where('model', '=', model)
    .where('grant_id', '=', grantId)
    .execute();
}

export async function deleteExpiredProviderRecords(db: Kysely<Database>): Promise<number> {
  const result = await db
    .deleteFrom('oidc_provider_records')
    .where('expires_at', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
