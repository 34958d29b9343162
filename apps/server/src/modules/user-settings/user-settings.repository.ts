import type { UserSettings } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';

export type UserSettingsRow = { settings: Record<string, unknown> | null; updated_at: Date | null };

/** Notes who the caller is (name, email, clients) and answers their saved settings. */
export async function noteUserAndRead(db: Kysely<Database>, scope: AccessScope): Promise<UserSettingsRow> {
  const row = await db
    .insertInto('user_settings')
    .values({
      user_id: scope.userId,
      user_name: scope.userName,
      email: scope.email ?? null,
      client_ids: [...scope.clientIds],
    })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        user_name: scope.userName,
        email: scope.email ?? null,
        client_ids: [...scope.clientIds],
        seen_at: sql`now()`,
      }),
    )
    .returning(['settings', 'updated_at'])
    .executeTakeFirstOrThrow();
  return row;
}

export async function saveSettings(
  db: Kysely<Database>,
  scope: AccessScope,
  settings: UserSettings,
): Promise<UserSettingsRow> {
  const json = JSON.stringify(settings);
  return db
    .insertInto('user_settings')
    .values({
      user_id: scope.userId,
      user_name: scope.userName,
      email: scope.email ?? null,
      client_ids: [...scope.clientIds],
      settings: json,
      updated_at: sql`now()`,
    })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        user_name: scope.userName,
        email: scope.email ?? null,
        client_ids: [...scope.clientIds],
        settings: json,
        updated_at: sql`now()`,
      }),
    )
    .returning(['settings', 'updated_at'])
    .executeTakeFirstOrThrow();
}
