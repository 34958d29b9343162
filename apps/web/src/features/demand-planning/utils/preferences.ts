import {
  DRILL_DOWNS,
  GRID_DEFAULT_PAGE_SIZE,
  GRID_PAGE_SIZES,
  VIEW_LEVELS,
  type DrillDown,
  type UserSettings,
  type ViewLevel,
} from '@ps/domain';
import { z } from 'zod';

/** localStorage key of the page's view preferences (spec §3). */
export const PREFERENCES_KEY = 'demand-planning-preferences';

/** The real-data grid is 700 px high (spec §9). */
export const GRID_HEIGHT_PX = 700;

export type GridPageSize = (typeof GRID_PAGE_SIZES)[number];

/**
 * What the page remembers between visits. The spec's generic view-preference defaults (50 rows,
 * 600 px) are overridden by the real-data grid's own constants (100 rows, 700 px), which are what
 * a planner sees, so those are stored.
 */
export type PlanningPreferences = {
  pageSize: GridPageSize;
  gridHeight: number;
  autoSave: boolean;
  viewLevel: ViewLevel;
  drillDownType: DrillDown;
};

const ZPreferences = z.object({
  pageSize: z
    .number()
    .refine((n): n is GridPageSize => (GRID_PAGE_SIZES as readonly number[]).includes(n))
    .catch(GRID_DEFAULT_PAGE_SIZE),
  gridHeight: z.number().int().min(300).max(3000).catch(GRID_HEIGHT_PX),
  autoSave: z.boolean().optional(),
  viewLevel: z.enum(VIEW_LEVELS).optional(),
  drillDownType: z.enum(DRILL_DOWNS).optional(),
});

/** Defaults for a first visit: the roll-up and time grouping come from the user's settings. */
export function defaultPreferences(
  settings: Pick<UserSettings, 'defaultViewLevel' | 'defaultDrillDown' | 'autoSave'>,
): PlanningPreferences {
  return {
    pageSize: GRID_DEFAULT_PAGE_SIZE,
    gridHeight: GRID_HEIGHT_PX,
    autoSave: settings.autoSave,
    viewLevel: settings.defaultViewLevel,
    drillDownType: settings.defaultDrillDown,
  };
}

/** Reads stored preferences; anything missing or malformed falls back to the defaults, never throws. */
export function parsePreferences(stored: string | null, defaults: PlanningPreferences): PlanningPreferences {
  if (!stored) return defaults;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return defaults;
  }
  const parsed = ZPreferences.safeParse(json);
  if (!parsed.success) return defaults;
  return {
    pageSize: parsed.data.pageSize,
    gridHeight: parsed.data.gridHeight,
    autoSave: parsed.data.autoSave ?? defaults.autoSave,
    viewLevel: parsed.data.viewLevel ?? defaults.viewLevel,
    drillDownType: parsed.data.drillDownType ?? defaults.drillDownType,
  };
}
