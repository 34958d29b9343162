import type { UserSettings } from '@ps/domain';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { errorText } from '@/i18n/error-text';
import { applyLanguage, i18next } from '@/i18n/i18n';
import { interfaceLanguage, languageOfSetting } from '@/i18n/languages';
import {
  readSavedLanguage,
  readUiPreferences,
  readSettingsInEffect,
  THEME_KEY,
  UI_PREFERENCES_KEY,
  USER_SETTINGS_KEY,
  writeSidebarCollapsed,
  writeUserSettings,
} from '@/lib/settings/settings-storage';
import {
  fetchServerSettings,
  isServerNewer,
  saveServerSettings,
  SETTINGS_SYNCED_KEY,
} from '@/lib/settings/server-settings';
import { applyTheme } from '@/lib/settings/theme';
import { UserSettingsContext, type UserSettingsContextValue } from '@/lib/settings/user-settings-context';

const WATCHED_KEYS = new Set([USER_SETTINGS_KEY, THEME_KEY, UI_PREFERENCES_KEY]);

/**
 * Holds the user's settings and ui-preferences for the whole app and applies the theme to the page
 * root, and the interface language to i18next and `<html lang>`. The settings dialog itself is rendered once by the AppLayout; anything may open it.
 */
export function UserSettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<UserSettings>(() =>
    readSettingsInEffect(localStorage, navigator.languages),
  );
  const [isSidebarCollapsed, setIsSidebarCollapsed] = useState(
    () => readUiPreferences(localStorage).sidebarCollapsed,
  );
  const [isSettingsDialogOpen, setSettingsDialogOpen] = useState(false);

  useLayoutEffect(() => applyTheme(settings.theme), [settings.theme]);
  // Every change of settings (a save here, another tab, sign-out) comes through `settings`.
  useLayoutEffect(() => {
    void applyLanguage(interfaceLanguage(readSavedLanguage(localStorage), navigator.languages));
  }, [settings]);

  // Another tab saved settings, or sign-out removed them: follow what storage says now.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && !WATCHED_KEYS.has(event.key)) return;
      setSettings(readSettingsInEffect(localStorage, navigator.languages));
      setIsSidebarCollapsed(readUiPreferences(localStorage).sidebarCollapsed);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const applySettings = useCallback((next: UserSettings) => {
    writeUserSettings(localStorage, next);
    // At once, not after the next render, so whatever the saver shows next is in the new language
    // (once its catalogue is here: the first time, a moment later).
    void applyLanguage(languageOfSetting(next.language));
    setSettings(next);
  }, []);

  // The server's copy follows the user from browser to browser; the local cache painted first.
  const { isAuthenticated } = useAuth();
  useEffect(() => {
    if (!isAuthenticated) return;
    let isCurrent = true;
    fetchServerSettings()
      .then((server) => {
        if (!isCurrent || !isServerNewer(server, localStorage.getItem(SETTINGS_SYNCED_KEY))) return;
        localStorage.setItem(SETTINGS_SYNCED_KEY, server.updatedAt ?? '');
        if (server.settings) applySettings(server.settings);
      })
      // Offline or refused: the cached settings stay in effect; nothing to tell the user.
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [isAuthenticated, applySettings]);

  const saveSettings = useCallback(
    (next: UserSettings) => {
      applySettings(next);
      if (!isAuthenticated) return;
      saveServerSettings(next)
        .then((saved) => localStorage.setItem(SETTINGS_SYNCED_KEY, saved.updatedAt ?? ''))
        .catch((error: unknown) =>
          toast({
            variant: 'destructive',
            title: i18next.t('settings:serverRefused'),
            description: errorText(error),
          }),
        );
    },
    [applySettings, isAuthenticated],
  );

  const setSidebarCollapsed = useCallback((isCollapsed: boolean) => {
    writeSidebarCollapsed(localStorage, isCollapsed);
    setIsSidebarCollapsed(isCollapsed);
  }, []);

  const settingsDialogReturnFocus = useRef<HTMLElement | null>(null);
  const openSettingsDialog = useCallback((options?: { returnFocusTo?: HTMLElement | null }) => {
    settingsDialogReturnFocus.current = options?.returnFocusTo ?? null;
    setSettingsDialogOpen(true);
  }, []);

  const value = useMemo<UserSettingsContextValue>(
    () => ({
      settings,
      saveSettings,
      isSidebarCollapsed,
      setSidebarCollapsed,
      isSettingsDialogOpen,
      openSettingsDialog,
      setSettingsDialogOpen,
      settingsDialogReturnFocus,
    }),
    [
      settings,
      saveSettings,
      isSidebarCollapsed,
      setSidebarCollapsed,
      isSettingsDialogOpen,
      openSettingsDialog,
    ],
  );

  return <UserSettingsContext value={value}>{children}</UserSettingsContext>;
}
