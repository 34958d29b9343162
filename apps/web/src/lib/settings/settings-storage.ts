import {
  DATA_REFRESH_OPTIONS,
  DEFAULT_USER_SETTINGS,
  SESSION_TIMEOUT_OPTIONS,
  type UserSettings,
} from '@ps/domain';
import { z } from 'zod';
import { interfaceLanguage, settingOfLanguage } from '@/i18n/languages';

/**
 * Browser storage of the user's preferences (spec §3). `userSettings` is the one source of truth
 * for the theme; every save also writes it to the `theme` key and to `ui-preferences` (which also
 * remembers the sidebar), so all three keys the spec lists agree. Sign-out removes userSettings
 * but keeps the other two, so the screen keeps its theme after signing out.
 */
export const USER_SETTINGS_KEY = 'userSettings';
export const THEME_KEY = 'theme';
export const UI_PREFERENCES_KEY = 'ui-preferences';

export type Theme = UserSettings['theme'];
export type UiPreferences = { theme: Theme; sidebarCollapsed: boolean };

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const d = DEFAULT_USER_SETTINGS;
const ZTheme = z.enum(['light', 'dark']);

/** Each field falls back to its default on its own, so one bad value does not reset the rest. */
const ZStoredUserSettings = z.object({
  numberFormat: z.enum(['us', 'indian']).catch(d.numberFormat),
  dateFormat: z.enum(['mm/dd/yyyy', 'dd/mm/yyyy']).catch(d.dateFormat),
  theme: ZTheme.catch(d.theme),
  language: z.enum(['english', 'spanish', 'french', 'german']).catch(d.language),
  currency: z.enum(['usd', 'eur', 'inr', 'gbp']).catch(d.currency),
  autoSave: z.boolean().catch(d.autoSave),
  emailNotifications: z.boolean().catch(d.emailNotifications),
  realTimeUpdates: z.boolean().catch(d.realTimeUpdates),
  compactView: z.boolean().catch(d.compactView),
  defaultViewLevel: z.enum(['sku', 'category', 'business_unit']).catch(d.defaultViewLevel),
  defaultDrillDown: z.enum(['none', 'quarterly', 'monthly', 'weekly']).catch(d.defaultDrillDown),
  exportFormat: z.enum(['xlsx', 'csv', 'pdf']).catch(d.exportFormat),
  sessionTimeout: z.enum(SESSION_TIMEOUT_OPTIONS).catch('60'),
  dataRefreshInterval: z.enum(DATA_REFRESH_OPTIONS).catch('60'),
}) satisfies z.ZodType<UserSettings>;

const ZUiPreferences = z.object({
  theme: ZTheme.optional().catch(undefined),
  sidebarCollapsed: z.boolean().catch(false),
});

function readJson(storage: KeyValueStorage, key: string): unknown {
  const text = storage.getItem(key);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readStoredTheme(storage: KeyValueStorage): Theme | undefined {
  const prefs = ZUiPreferences.safeParse(readJson(storage, UI_PREFERENCES_KEY));
  if (prefs.success && prefs.data.theme) return prefs.data.theme;
  const theme = ZTheme.safeParse(storage.getItem(THEME_KEY));
  return theme.success ? theme.data : undefined;
}

/** The stored settings merged over the defaults; without userSettings the last theme shown is kept. */
export function readUserSettings(storage: KeyValueStorage): UserSettings {
  const stored = readJson(storage, USER_SETTINGS_KEY);
  if (typeof stored === 'object' && stored !== null) {
    return ZStoredUserSettings.parse({ ...DEFAULT_USER_SETTINGS, ...stored });
  }
  return { ...DEFAULT_USER_SETTINGS, theme: readStoredTheme(storage) ?? DEFAULT_USER_SETTINGS.theme };
}

/** The language the user chose, if they ever saved settings; undefined lets the browser decide. */
export function readSavedLanguage(storage: KeyValueStorage): UserSettings['language'] | undefined {
  if (readJson(storage, USER_SETTINGS_KEY) === undefined) return undefined;
  return readUserSettings(storage).language;
}

/**
 * The settings as they act on the screen: without a saved language the browser's decides, so the
 * settings dialog shows that language rather than the default English.
 */
export function readSettingsInEffect(
  storage: KeyValueStorage,
  browserLanguages: readonly string[],
): UserSettings {
  const language = interfaceLanguage(readSavedLanguage(storage), browserLanguages);
  return { ...readUserSettings(storage), language: settingOfLanguage(language) };
}

export function readUiPreferences(storage: KeyValueStorage): UiPreferences {
  const prefs = ZUiPreferences.safeParse(readJson(storage, UI_PREFERENCES_KEY));
  return {
    theme: readUserSettings(storage).theme,
    sidebarCollapsed: prefs.success ? prefs.data.sidebarCollapsed : false,
  };
}

function writeUiPreferences(storage: KeyValueStorage, prefs: UiPreferences): void {
  storage.setItem(UI_PREFERENCES_KEY, JSON.stringify(prefs));
  storage.setItem(THEME_KEY, prefs.theme);
}

export function writeUserSettings(storage: KeyValueStorage, settings: UserSettings): void {
  storage.setItem(USER_SETTINGS_KEY, JSON.stringify(settings));
  writeUiPreferences(storage, { ...readUiPreferences(storage), theme: settings.theme });
}

export function writeSidebarCollapsed(storage: KeyValueStorage, isCollapsed: boolean): void {
  writeUiPreferences(storage, { ...readUiPreferences(storage), sidebarCollapsed: isCollapsed });
}
