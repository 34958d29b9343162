import type { ComponentType } from 'react';
import { hasLiveStoredSession } from '@/lib/auth/token-store';

export type ScreenModule = () => Promise<{ default: ComponentType }>;
type Screen = Awaited<ReturnType<ScreenModule>>;

/** Screens' modules that have arrived, by their loader. */
const loaded = new Map<ScreenModule, Screen>();
/** What the page opens on: its screens' downloads, started by the entry (see startScreenDownload). */
let firstScreens: Promise<unknown> = Promise.resolve();

/** A screen's module, downloaded (once; a failed download is tried again by the next call). */
export function loadScreen(load: ScreenModule): Promise<Screen> {
  return load().then((screen) => {
    loaded.set(load, screen);
    return screen;
  });
}

/**
 * A screen's loader for React.lazy: once the module has arrived (the screen the page opened on,
 * downloaded from the entry) it answers with a thenable that calls back at once, and React.lazy
 * then draws the screen in the render that asks for it. A promise, even a settled one, calls back
 * later: that render would suspend, show the loading state, and hold the screen back after it.
 */
export function lazyScreen(load: ScreenModule): ScreenModule {
  return () => {
    const screen = loaded.get(load);
    if (!screen) return loadScreen(load);
    const now = { then: (resolve: (value: Screen) => void) => resolve(screen) };
    return now as unknown as Promise<Screen>;
  };
}

/**
 * The downloads of the screen the page opened on, settled (arrived or failed): the app's first
 * render waits for them, so it draws the screen itself, not its loading state first.
 */
export function firstScreenDownloads(): Promise<unknown> {
  return firstScreens;
}

/** The frame (sidebar and header) of every signed-in screen. */
export const loadAppLayout: ScreenModule = () => import('@/features/shell/AppLayout');
export const loadNotFound: ScreenModule = () => import('@/features/errors/NotFoundPage');

/** Screens outside the frame, by path. */
export const PUBLIC_SCREENS = {
  '/': () => import('@/features/landing/LandingPage'),
  '/auth/callback': () => import('@/features/auth/pages/AuthCallbackPage'),
  '/auth/debug': () => import('@/features/auth/pages/AuthDebugPage'),
  '/auth/login': () => import('@/features/auth/pages/SignInRedirectPage'),
} satisfies Record<string, ScreenModule>;

const controlTowerReview: ScreenModule = () => import('@/features/control-tower/DemandPlanningReviewPage');

/** Screens inside the frame, by path. */
export const SIGNED_IN_SCREENS = {
  '/unauthorized': () => import('@/features/auth/pages/UnauthorizedPage'),
  '/demand-planning': () => import('@/features/demand-planning/DemandPlanningPage'),
  '/demand-planning-review': controlTowerReview,
  '/circor': () => import('@/features/circor/CircorHomePage'),
  '/optichain': () => import('@/features/optichain/OptichainPage'),
  '/qpoint': () => import('@/features/qpoint/QualityControlPage'),
  '/control-tower': controlTowerReview,
  '/control-tower/forecast-accuracy-metrics': () => import('@/features/control-tower/ForecastAccuracyPage'),
  '/inventory-planning': () => import('@/features/inventory/InventoryPlanningPage'),
  '/control-tower/inventory-metrics': () => import('@/features/control-tower/InventoryMetricsPage'),
  '/control-tower/sd-match-trend': () => import('@/features/control-tower/SdMatchTrendPage'),
  '/control-tower/demand-planning-review': controlTowerReview,
  '/profile': () => import('@/features/profile/ProfilePage'),
  '/exchange-rates': () => import('@/features/exchange-rates/ExchangeRatesPage'),
  '/cycle': () => import('@/features/cycle/CyclePage'),
  '/data': () => import('@/features/data/DataPage'),
} satisfies Record<string, ScreenModule>;

function own<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(table, key);
}

/**
 * Starts the code of the screen the page opens on, from the entry, before the app's own code has
 * loaded: the screen's chunks download beside the app's instead of after it has started and its
 * router has matched the path. A signed-in screen's code is fetched only with a
 * live stored session (otherwise the page goes to sign-in). Its modules run when they arrive; the
 * routes ask for the same modules and get them. A failed download is tried again by the route.
 */
export function startScreenDownload(pathname: string): void {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const loads: ScreenModule[] = [];
  if (own(PUBLIC_SCREENS, path)) loads.push(PUBLIC_SCREENS[path]);
  else if (own(SIGNED_IN_SCREENS, path) && hasLiveStoredSession())
    loads.push(loadAppLayout, SIGNED_IN_SCREENS[path]);
  firstScreens = Promise.all(loads.map((load) => loadScreen(load).catch(() => undefined)));
}
