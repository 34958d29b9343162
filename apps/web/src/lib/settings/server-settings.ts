import { userSettingsEndpoints, type StoredUserSettings, type UserSettings } from '@ps/domain';
import { LOCAL_KEYS } from '@/lib/auth/storage-keys';
import { callEndpoint } from '@/lib/api-client';

/**
 * When this browser's cached settings were last the same as the server's (the server's updatedAt),
 * so a newer save from another browser can be told apart from an older copy.
 */
export const SETTINGS_SYNCED_KEY = LOCAL_KEYS.userSettingsSyncedAt;

/** The settings this user saved on the server (from any browser); settings null before the first save. */
export async function fetchServerSettings(): Promise<StoredUserSettings> {
  return callEndpoint(userSettingsEndpoints.read, { parse: true });
}

export async function saveServerSettings(settings: UserSettings): Promise<StoredUserSettings> {
  return callEndpoint(userSettingsEndpoints.save, { body: settings });
}

/**
 * Whether the server's copy should replace the cache: it was saved (from any browser) after the
 * cache last matched it. Only a save writes the server, so a cache never overwrites it on load.
 */
export function isServerNewer(server: StoredUserSettings, syncedAt: string | null): boolean {
  if (!server.settings || !server.updatedAt) return false;
  return syncedAt === null || server.updatedAt > syncedAt;
}
