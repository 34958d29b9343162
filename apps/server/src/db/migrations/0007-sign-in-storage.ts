import { sql, type Kysely } from 'kysely';

/**
 * Sign-in state shared by every server process: the embedded provider's sessions, grants, codes,
 * tokens and interactions, and the failed sign-in counters of the login throttle.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_provider_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oidc_provider_records_pkey', ['model', 'id'])
    .execute();
  await sql`create index oidc_provider_records_grant on oidc_provider_records (grant_id) where grant_id is not null`.execute(
    db,
  );
  await sql`create index oidc_provider_records_uid on oidc_provider_records (model, uid) where uid is not null`.execute(
    db,
  );
  await sql`create index oidc_provider_records_user_code on oidc_provider_records (model, user_code) where user_code is not null`.execute(
    db,
  );
  await sql`create index oidc_provider_records_expiry on oidc_provider_records (expires_at)`.execute(db);

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_failures').ifExists().execute();
  await db.schema.dropTable('oidc_provider_records').ifExists().execute();
}
