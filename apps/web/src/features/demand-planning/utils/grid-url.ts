import {
  DRILL_DOWNS,
  GRID_PAGE_SIZES,
  GRID_PERIODS,
  sundayOfDay,
  SORT_DIRECTIONS,
  VIEW_LEVELS,
  type DrillDown,
  type GridPeriodChoice,
  type SortDirection,
  type ViewLevel,
} from '@ps/domain';
import type { GridSortState } from './grid-query';

/** The grid's View: the tables, or the time-phased plan. */
export const GRID_LAYOUTS = ['table', 'time-phased'] as const;
export type GridLayout = (typeof GRID_LAYOUTS)[number];

/** The period a view opens on when neither its link nor its saved view names one. */
export const DEFAULT_GRID_PERIOD: GridPeriodChoice = 'horizon';

/**
 * The period of a link: period=history|all (or horizon), else from=…&to=… fixed weeks (any day
 * stands for its week's Sunday; either may be left out); undefined when the link names none.
 */
function periodOf(params: URLSearchParams): GridPeriodChoice | undefined {
  const named = oneOf(GRID_PERIODS, params.get('period'));
  if (named) return named;
  const from = sundayOfDay(params.get('from') ?? '');
  const to = sundayOfDay(params.get('to') ?? '');
  if (from === null && to === null) return undefined;
  // Ends given the wrong way round are read as the weeks between them.
  return from !== null && to !== null && from > to ? { from: to, to: from } : { from, to };
}

/** What a shared link carries: the view, its filters, sort and page. */
export type GridUrlState = {
  layout?: GridLayout;
  viewLevel?: ViewLevel;
  drillDown?: DrillDown;
  period?: GridPeriodChoice;
  bu: string[];
  pf: string[];
  region: string[];
  search: string;
  sort: GridSortState;
  /** Zero-based page index; the URL shows it one-based, as the pager does. */
  pageIndex: number;
  pageSize?: (typeof GRID_PAGE_SIZES)[number];
  /** The owner's saved view this state was opened from (only its owner's Views menu knows it). */
  savedViewId?: number;
};

const list = (value: string | null): string[] =>
  value === null
    ? []
    : value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0);

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value);

/**
 * Reads the grid's state from the page URL. A value that is not one the grid offers is ignored
 * (the preference or default applies), so a hand-edited or stale link still opens a view.
 */
export function parseGridUrl(params: URLSearchParams): GridUrlState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const sortBy = params.get('sortBy');
  const sortDir = oneOf<SortDirection>(SORT_DIRECTIONS, params.get('sortDir')) ?? 'asc';
  const viewLevel = oneOf(VIEW_LEVELS, params.get('view'));
  const drillDown = oneOf(DRILL_DOWNS, params.get('drill'));
  const pageSize = GRID_PAGE_SIZES.find((s) => s === size);
  const layout = oneOf(GRID_LAYOUTS, params.get('layout'));
  const savedViewId = Number(params.get('savedView'));
  const period = periodOf(params);
  return {
    ...(layout ? { layout } : {}),
    ...(viewLevel ? { viewLevel } : {}),
    ...(drillDown ? { drillDown } : {}),
    ...(period ? { period } : {}),
    bu: list(params.get('bu')),
    pf: list(params.get('pf')),
    region: list(params.get('region')),
    search: params.get('q')?.trim() ?? '',
    sort: sortBy && /^[\wï]{1,60}$/.test(sortBy) ? { field: sortBy, dir: sortDir } : null,
    pageIndex: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    ...(pageSize ? { pageSize } : {}),
    ...(Number.isSafeInteger(savedViewId) && savedViewId >= 1 ? { savedViewId } : {}),
  };
}

/** The URL parameters of a grid state; defaults (no filter, no sort, page 1) are left out. */
export function gridUrlOf(state: GridUrlState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.layout && state.layout !== 'table') params.set('layout', state.layout);
  if (state.viewLevel) params.set('view', state.viewLevel);
  if (state.drillDown) params.set('drill', state.drillDown);
  if (typeof state.period === 'string') {
    if (state.period !== DEFAULT_GRID_PERIOD) params.set('period', state.period);
  } else if (state.period) {
    if (state.period.from) params.set('from', state.period.from);
    if (state.period.to) params.set('to', state.period.to);
  }
  for (const key of ['bu', 'pf', 'region'] as const)
    if (state[key].length > 0) params.set(key, state[key].join(','));
  if (state.search) params.set('q', state.search);
  if (state.sort) {
    params.set('sortBy', state.sort.field);
    params.set('sortDir', state.sort.dir);
  }
  if (state.pageIndex > 0) params.set('page', String(state.pageIndex + 1));
  if (state.pageSize) params.set('size', String(state.pageSize));
  if (state.savedViewId) params.set('savedView', String(state.savedViewId));
  return params;
}
