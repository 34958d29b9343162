import { ZUserSettings, type StoredUserSettings, type UserSettings } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { noteUserAndRead, saveSettings, type UserSettingsRow } from './user-settings.repository';

function toStored(row: UserSettingsRow): StoredUserSettings {
  // Settings saved by an older version may lack a newer field or hold a retired value: they read
  // as never saved rather than failing the screen, and the next save writes them whole.
  const parsed = ZUserSettings.safeParse(row.settings);
  return {
    settings: parsed.success ? parsed.data : null,
    updatedAt: parsed.success && row.updated_at ? new Date(row.updated_at).toISOString() : null,
  };
}

/** Settings that follow the user: one row per signed-in user on the server. */
export class UserSettingsService {
  constructor(private readonly db: Kysely<Database>) {}

  async read(scope: AccessScope): Promise<StoredUserSettings> {
    return toStored(await noteUserAndRead(this.db, scope));
  }

  async save(scope: AccessScope, settings: UserSettings): Promise<StoredUserSettings> {
    return toStored(await saveSettings(this.db, scope, settings));
  }
}
