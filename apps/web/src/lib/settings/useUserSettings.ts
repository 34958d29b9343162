import { use } from 'react';
import { UserSettingsContext, type UserSettingsContextValue } from '@/lib/settings/user-settings-context';

/**
 * The user's settings (spec §3) and ui-preferences. `settings.defaultViewLevel` and
 * `settings.defaultDrillDown` use the planning grid's ViewLevel / DrillDown values, so the grid
 * can seed its dropdowns from them directly.
 */
export function useUserSettings(): UserSettingsContextValue {
  const value = use(UserSettingsContext);
  if (!value) throw new Error('useUserSettings must be used inside <UserSettingsProvider>');
  return value;
}
