import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  readSettingsInEffect,
  readUiPreferences,
  readUserSettings,
  THEME_KEY,
  UI_PREFERENCES_KEY,
  USER_SETTINGS_KEY,
  writeSidebarCollapsed,
  writeUserSettings,
} from '@/lib/settings/settings-storage';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

describe('settings storage', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
  });

  it('shows the browser language in effect while no language is saved, the saved one after', () => {
    expect(readSettingsInEffect(storage, ['de-AT', 'en']).language).toBe('german');
    expect(readSettingsInEffect(storage, ['pt-BR']).language).toBe('english');
    writeUserSettings(storage, { ...DEFAULT_USER_SETTINGS, language: 'french' });
    expect(readSettingsInEffect(storage, ['de-AT', 'en']).language).toBe('french');
  });

  it('starts from the spec defaults (light theme, sidebar wide)', () => {
    expect(readUserSettings(storage)).toEqual(DEFAULT_USER_SETTINGS);
    expect(readUiPreferences(storage)).toEqual({ theme: 'light', sidebarCollapsed: false });
  });

  it('saves under userSettings and mirrors the theme to the theme key and ui-preferences', () => {
    writeUserSettings(storage, { ...DEFAULT_USER_SETTINGS, theme: 'dark', numberFormat: 'indian' });
    expect(JSON.parse(storage.getItem(USER_SETTINGS_KEY)!)).toMatchObject({
      theme: 'dark',
      numberFormat: 'indian',
    });
    expect(storage.getItem(THEME_KEY)).toBe('dark');
    expect(JSON.parse(storage.getItem(UI_PREFERENCES_KEY)!)).toEqual({
      theme: 'dark',
      sidebarCollapsed: false,
    });
    expect(readUserSettings(storage).numberFormat).toBe('indian');
  });

  it('remembers the sidebar collapse without touching the theme', () => {
    writeUserSettings(storage, { ...DEFAULT_USER_SETTINGS, theme: 'dark' });
    writeSidebarCollapsed(storage, true);
    expect(readUiPreferences(storage)).toEqual({ theme: 'dark', sidebarCollapsed: true });
  });

  it('keeps the last theme after sign-out removed userSettings', () => {
    writeUserSettings(storage, { ...DEFAULT_USER_SETTINGS, theme: 'dark' });
    storage.items.delete(USER_SETTINGS_KEY);
    expect(readUserSettings(storage).theme).toBe('dark');
  });

  it('falls back per field on bad stored values and ignores unreadable JSON', () => {
    storage.setItem(
      USER_SETTINGS_KEY,
      JSON.stringify({ currency: 'yen', compactView: 'yes', dateFormat: 'dd/mm/yyyy', sessionTimeout: '45' }),
    );
    const settings = readUserSettings(storage);
    expect(settings.currency).toBe('usd');
    expect(settings.compactView).toBe(false);
    expect(settings.sessionTimeout).toBe('60');
    expect(settings.dateFormat).toBe('dd/mm/yyyy');

    storage.setItem(USER_SETTINGS_KEY, '{not json');
    storage.setItem(UI_PREFERENCES_KEY, '{not json');
    expect(readUserSettings(storage)).toEqual(DEFAULT_USER_SETTINGS);
    expect(readUiPreferences(storage).sidebarCollapsed).toBe(false);
  });
});
