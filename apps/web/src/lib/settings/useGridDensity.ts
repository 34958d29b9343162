import { useUserSettings } from '@/lib/settings/useUserSettings';

/** Row and header heights of data grids: the spec's 35/40 px, tighter with Compact View on. */
export type GridDensity = { rowHeight: number; headerHeight: number; isCompact: boolean };

export const REGULAR_DENSITY: GridDensity = { rowHeight: 35, headerHeight: 40, isCompact: false };
export const COMPACT_DENSITY: GridDensity = { rowHeight: 28, headerHeight: 32, isCompact: true };

export function useGridDensity(): GridDensity {
  return useUserSettings().settings.compactView ? COMPACT_DENSITY : REGULAR_DENSITY;
}
