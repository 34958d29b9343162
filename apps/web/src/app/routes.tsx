import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type LoaderFunctionArgs, type NonIndexRouteObject } from 'react-router';
import { ProtectedRoute } from '@/features/auth';
import { prefetchPlanningData } from '@/features/demand-planning';
import { RouteErrorScreen } from '@/features/errors';
import type { AppRouteHandle } from '@/features/shell';
import { queryClient } from './query-client';
import {
  loadAppLayout,
  lazyScreen,
  loadNotFound,
  loadScreen,
  PUBLIC_SCREENS,
  SIGNED_IN_SCREENS,
  type ScreenModule,
} from './screens';

/** Groups of the identity token that open each screen (spec §2 route table, §6). */
const ADMIN = ['admin'];
const ADMIN_OR_CUSTOMER = ['admin', 'circor'];
const CUSTOMER = ['circor'];

function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="p-8 text-muted-foreground" data-testid="screen-loading">
      {t('common:loading')}
    </div>
  );
}

/**
 * What shows while the first navigation's loaders run: nothing, as before there were loaders; they
 * only start downloads and return at once. Named so the router does not warn about a missing one.
 */
function FirstNavigation() {
  return null;
}

type ScreenOptions = {
  /** Groups that open the screen (any signed-in user when empty); absent: a public screen. */
  guard?: string[];
  /** Starts the screen's first data requests as the navigation begins (see `screen`). */
  prefetch?: (url: URL) => void;
};

/**
 * A route's screen, whose bundle loads on first visit. Its loader starts that download (and the
 * screen's first data requests, if it names them) as soon as the navigation begins, so a deep link
 * fetches the frame's and the screen's chunks side by side, while the sign-in check runs, instead
 * of one after another as each lazy parent renders. The loader waits for
 * nothing: the screen still shows its own loading states. Staying on the route (a search-parameter
 * change) re-runs nothing.
 */
function screen(
  load: ScreenModule,
  { guard, prefetch }: ScreenOptions = {},
): Pick<NonIndexRouteObject, 'element' | 'loader' | 'shouldRevalidate' | 'HydrateFallback'> {
  // A screen whose module has arrived is drawn without suspending (see lazyScreen).
  const Screen = lazy(lazyScreen(load));
  const element = (
    <Suspense fallback={<PageLoading />}>
      <Screen />
    </Suspense>
  );
  return {
    element: guard ? <ProtectedRoute allowedGroups={guard}>{element}</ProtectedRoute> : element,
    loader: ({ request }: LoaderFunctionArgs) => {
      // A failed download shows when the screen renders (React.lazy loads it again and throws).
      loadScreen(load).catch(() => undefined);
      prefetch?.(new URL(request.url));
      return null;
    },
    shouldRevalidate: () => false,
    HydrateFallback: FirstNavigation,
  };
}

/** Any signed-in user: the screen checks no group of its own. */
const SIGNED_IN: string[] = [];

/** Every route gets the generic error screen as its error boundary (spec §2). */
function withErrorScreen(routes: NonIndexRouteObject[]): NonIndexRouteObject[] {
  return routes.map((route) => ({ ...route, errorElement: <RouteErrorScreen /> }));
}

/** Signed-in screens: rendered inside the AppLayout (sidebar + header), each with its own access rule. */
const signedInRoutes: NonIndexRouteObject[] = [
  {
    path: '/unauthorized',
    ...screen(SIGNED_IN_SCREENS['/unauthorized'], { guard: SIGNED_IN }),
  },
  {
    path: '/demand-planning',
    // The planning page draws its own header (logo, title, help, Focus View, import/export, user menu).
    // It says itself when its first rows are on screen (lib/first-screen.ts).
    handle: { hasOwnHeader: true, marksFirstScreen: true } satisfies AppRouteHandle,
    ...screen(SIGNED_IN_SCREENS['/demand-planning'], {
      guard: ADMIN,
      prefetch: (url) => prefetchPlanningData(queryClient, url.search),
    }),
  },
  {
    path: '/demand-planning-review',
    ...screen(SIGNED_IN_SCREENS['/demand-planning-review'], {
      guard: ADMIN_OR_CUSTOMER,
    }),
  },
  {
    path: '/circor',
    ...screen(SIGNED_IN_SCREENS['/circor'], { guard: CUSTOMER }),
  },
  {
    path: '/optichain',
    ...screen(SIGNED_IN_SCREENS['/optichain'], { guard: ADMIN }),
  },
  {
    path: '/qpoint',
    ...screen(SIGNED_IN_SCREENS['/qpoint'], { guard: ADMIN }),
  },
  {
    path: '/control-tower',
    ...screen(SIGNED_IN_SCREENS['/control-tower'], {
      guard: ADMIN_OR_CUSTOMER,
    }),
  },
  {
    path: '/control-tower/forecast-accuracy-metrics',
    ...screen(SIGNED_IN_SCREENS['/control-tower/forecast-accuracy-metrics'], { guard: ADMIN_OR_CUSTOMER }),
  },
  {
    path: '/inventory-planning',
    ...screen(SIGNED_IN_SCREENS['/inventory-planning'], { guard: ADMIN_OR_CUSTOMER }),
  },
  {
    path: '/control-tower/inventory-metrics',
    ...screen(SIGNED_IN_SCREENS['/control-tower/inventory-metrics'], { guard: ADMIN_OR_CUSTOMER }),
  },
  {
    path: '/control-tower/sd-match-trend',
    ...screen(SIGNED_IN_SCREENS['/control-tower/sd-match-trend'], { guard: ADMIN_OR_CUSTOMER }),
  },
  {
    path: '/control-tower/demand-planning-review',
    ...screen(SIGNED_IN_SCREENS['/control-tower/demand-planning-review'], {
      guard: ADMIN_OR_CUSTOMER,
    }),
  },
  { path: '/profile', ...screen(SIGNED_IN_SCREENS['/profile'], { guard: SIGNED_IN }) },
  {
    path: '/exchange-rates',
    ...screen(SIGNED_IN_SCREENS['/exchange-rates'], { guard: ADMIN_OR_CUSTOMER }),
  },
  {
    path: '/cycle',
    ...screen(SIGNED_IN_SCREENS['/cycle'], { guard: ADMIN }),
  },
  { path: '/data', ...screen(SIGNED_IN_SCREENS['/data'], { guard: ADMIN }) },
];

export const router = createBrowserRouter(
  withErrorScreen([
    { path: '/', ...screen(PUBLIC_SCREENS['/']) },
    { path: '/auth/callback', ...screen(PUBLIC_SCREENS['/auth/callback']) },
    { path: '/auth/debug', ...screen(PUBLIC_SCREENS['/auth/debug']) },
    // Where /api/auth/login hands over: starts the provider redirect with the browser's PKCE state.
    { path: '/auth/login', ...screen(PUBLIC_SCREENS['/auth/login']) },
    // Pathless layout route: any signed-in user gets the frame; each screen checks its groups.
    {
      ...screen(loadAppLayout, { guard: SIGNED_IN }),
      children: withErrorScreen(signedInRoutes),
    },
    { path: '*', ...screen(loadNotFound) },
  ]),
);
