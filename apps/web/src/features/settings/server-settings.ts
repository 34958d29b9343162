import { userSettingsEndpoints, type UserSettings } from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

/** The settings this user saved on the server (from any browser); null before the first save. */
export async function fetchServerSettings(): Promise<UserSettings | null> {
  const stored = await callEndpoint(userSettingsEndpoints.read, { parse: true });
  return stored.settings;
}

export async function saveServerSettings(settings: UserSettings): Promise<void> {
  await callEndpoint(userSettingsEndpoints.save, { body: settings });
}

/** Same settings, whatever order their keys were written in. */
export function sameSettings(a: UserSettings, b: UserSettings): boolean {
  return (Object.keys(a) as (keyof UserSettings)[]).every((key) => a[key] === b[key]);
}
