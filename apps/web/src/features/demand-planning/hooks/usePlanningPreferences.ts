import { useCallback, useState } from 'react';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import {
  defaultPreferences,
  parsePreferences,
  PREFERENCES_KEY,
  type PlanningPreferences,
} from '../utils/preferences';

function readStored(): string | null {
  try {
    return localStorage.getItem(PREFERENCES_KEY);
  } catch {
    return null;
  }
}

/**
 * The page's view preferences under localStorage 'demand-planning-preferences' (spec §3). A first
 * visit starts from the user's default view level and drill-down; later visits from what was left.
 */
export function usePlanningPreferences(
  /** What a shared link names (view, drill-down, page size): it wins over what was stored. */
  fromLink: Partial<PlanningPreferences> = {},
): [PlanningPreferences, (patch: Partial<PlanningPreferences>) => void] {
  const { settings } = useUserSettings();
  const [preferences, setPreferences] = useState<PlanningPreferences>(() => ({
    ...parsePreferences(readStored(), defaultPreferences(settings)),
    ...fromLink,
  }));
  const update = useCallback((patch: Partial<PlanningPreferences>) => {
    setPreferences((current) => {
      const next = { ...current, ...patch };
      try {
        localStorage.setItem(PREFERENCES_KEY, JSON.stringify(next));
      } catch {
        // Storage full or blocked: the preference holds for this visit only.
      }
      return next;
    });
  }, []);
  return [preferences, update];
}
