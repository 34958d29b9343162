import type { UserSettings } from '@ps/domain';
import { createContext, type RefObject } from 'react';

export type UserSettingsContextValue = {
  settings: UserSettings;
  /** Saves every field under userSettings (and the theme to its mirrors); takes effect at once. */
  saveSettings: (settings: UserSettings) => void;
  isSidebarCollapsed: boolean;
  setSidebarCollapsed: (isCollapsed: boolean) => void;
  isSettingsDialogOpen: boolean;
  /**
   * Opens the settings dialog. Openers that disappear while it is open (a menu item) pass the
   * control that should get focus back when it closes, e.g. the menu's trigger.
   */
  openSettingsDialog: (options?: { returnFocusTo?: HTMLElement | null }) => void;
  setSettingsDialogOpen: (isOpen: boolean) => void;
  /** Where focus goes when the dialog closes; null lets the dialog restore it as usual. */
  settingsDialogReturnFocus: RefObject<HTMLElement | null>;
};

export const UserSettingsContext = createContext<UserSettingsContextValue | null>(null);
