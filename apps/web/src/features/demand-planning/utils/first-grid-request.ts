import {
  isSortableAt,
  type DrillDown,
  type GridPeriodChoice,
  type UserSettings,
  type ViewLevel,
} from '@ps/domain';
import type { FilterSelection } from '../components/FilterBar';
import { filterParam } from './filter-summary';
import type { GridRequest, GridSortState } from './grid-query';
import { DEFAULT_GRID_PERIOD, parseGridUrl } from './grid-url';
import { defaultPreferences, parsePreferences } from './preferences';

export type GridViewRequest = Omit<GridRequest, 'offset' | 'limit'>;

/** How many values each filter offers; 0 while the options have not arrived. */
export type FilterOptionCounts = { bu: number; pf: number; region: number };

const NO_OPTIONS: FilterOptionCounts = { bu: 0, pf: 0, region: 0 };

/**
 * The grid request of the page's state: what the server is asked for (filters that select
 * everything are left out; a sort by a column the view does not have lapses).
 */
export function viewRequestOf(state: {
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  selection: FilterSelection;
  optionCounts: FilterOptionCounts;
  sort: GridSortState;
  period: GridPeriodChoice;
}): GridViewRequest {
  const { viewLevel, drillDown, selection, optionCounts, sort, period } = state;
  return {
    viewLevel,
    drillDown,
    period,
    bu: filterParam(selection.bu, optionCounts.bu),
    pf: filterParam(selection.pf, optionCounts.pf),
    region: filterParam(selection.region, optionCounts.region),
    search: selection.search || undefined,
    sort: sort && isSortableAt(viewLevel, drillDown, sort.field) ? sort : null,
  };
}

/**
 * The first grid page the planning page asks for when it opens at `search` (the address's query),
 * computed before the page's code has loaded so the request can start with the download. It goes through the same steps as the page: the link wins over the stored preferences,
 * which win over the user's default view; the filter options have not arrived yet. Null when the
 * page opens on the time-phased view, which asks for other data.
 */
export function firstGridRequest(input: {
  search: string;
  storedPreferences: string | null;
  settings: Pick<UserSettings, 'defaultViewLevel' | 'defaultDrillDown' | 'autoSave'>;
}): GridRequest | null {
  const fromUrl = parseGridUrl(new URLSearchParams(input.search));
  if (fromUrl.layout === 'time-phased') return null;
  const stored = parsePreferences(input.storedPreferences, defaultPreferences(input.settings));
  const viewLevel = fromUrl.viewLevel ?? stored.viewLevel;
  const drillDown = fromUrl.drillDown ?? stored.drillDownType;
  const pageSize = fromUrl.pageSize ?? stored.pageSize;
  const { bu, pf, region, search } = fromUrl;
  return {
    ...viewRequestOf({
      viewLevel,
      drillDown,
      selection: { bu, pf, region, search },
      optionCounts: NO_OPTIONS,
      sort: fromUrl.sort,
      period: fromUrl.period ?? DEFAULT_GRID_PERIOD,
    }),
    offset: fromUrl.pageIndex * pageSize,
    limit: pageSize,
  };
}
