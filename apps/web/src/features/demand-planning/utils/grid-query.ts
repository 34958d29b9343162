import {
  periodParamsOf,
  type DrillDown,
  type GridPeriodChoice,
  type SortDirection,
  type ViewLevel,
} from '@ps/domain';

/** The column the grid is sorted by on the server (spec §4), or none. */
export type GridSortState = { field: string; dir: SortDirection } | null;

/** The filters of the filter bar as applied (the values sent to the server). */
export type AppliedFilters = {
  bu?: string[];
  pf?: string[];
  region?: string[];
  search?: string;
};

export type GridRequest = AppliedFilters & {
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  /** The weeks the view covers: the plan horizon unless the planner chose others. */
  period: GridPeriodChoice;
  sort?: GridSortState;
  offset: number;
  limit: number;
};

/**
 * Query parameters of the grid and export calls. Lists go comma-separated (the server splits them);
 * empty filters are left out so equal requests have equal URLs (and cache keys).
 */
export function gridQueryParams(request: Omit<GridRequest, 'offset' | 'limit'> & Partial<GridRequest>) {
  const params = new URLSearchParams();
  params.set('viewLevel', request.viewLevel);
  params.set('drillDown', request.drillDown);
  for (const key of ['bu', 'pf', 'region'] as const) {
    const values = request[key];
    if (values && values.length > 0) params.set(key, values.join(','));
  }
  const search = request.search?.trim();
  if (search) params.set('search', search);
  for (const [key, value] of Object.entries(periodParamsOf(request.period)))
    if (value !== undefined) params.set(key, value);
  if (request.sort) {
    params.set('sortBy', request.sort.field);
    params.set('sortDir', request.sort.dir);
  }
  if (request.offset !== undefined) params.set('offset', String(request.offset));
  if (request.limit !== undefined) params.set('limit', String(request.limit));
  return params;
}

/**
 * The sort a click on a column's header asks for (spec §4): unsorted → ascending → descending →
 * unsorted, and another column starts ascending.
 */
export function nextSortOf(sort: GridSortState, field: string): GridSortState {
  if (sort?.field !== field) return { field, dir: 'asc' };
  return sort.dir === 'asc' ? { field, dir: 'desc' } : null;
}

/** The page after the one asked for, while the view has more rows; null on its last page. */
export function nextPageRequest(request: GridRequest, total: number): GridRequest | null {
  const offset = request.offset + request.limit;
  return offset < total ? { ...request, offset } : null;
}

/** The page that holds row `offset` when the page size changes, so the planner stays where they were. */
export function pageIndexFor(offset: number, pageSize: number): number {
  return Math.floor(offset / pageSize);
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** 'yyyy-mm-dd' of the local day, as the spec's export file names use. */
function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Spec §9: demand-planning-real-data-{date}.csv. */
export function csvExportFilename(now: Date): string {
  return `demand-planning-real-data-${localIsoDate(now)}.csv`;
}

/** The file name in a Content-Disposition header, if the server sent one. */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() ?? null;
}
