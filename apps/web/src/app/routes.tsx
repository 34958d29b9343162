import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type NonIndexRouteObject } from 'react-router';
import { ProtectedRoute } from '@/features/auth/components/ProtectedRoute';
import { RouteErrorScreen } from '@/features/errors/RouteErrorScreen';
import type { AppRouteHandle } from '@/features/shell/route-handle';

/** Groups of the identity token that open each screen (spec §2 route table, §6). */
const ADMIN = ['admin'];
const ADMIN_OR_CUSTOMER = ['admin', 'circor'];
const CUSTOMER = ['circor'];

function PageLoading() {
  const { t } = useTranslation();
  return <div className="p-8 text-muted-foreground">{t('common:loading')}</div>;
}

/** Route bundles load on first visit. */
function page(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Page = lazy(load);
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}

function guarded(node: ReactNode, allowedGroups?: string[]): ReactNode {
  return <ProtectedRoute allowedGroups={allowedGroups}>{node}</ProtectedRoute>;
}

/** Every route gets the generic error screen as its error boundary (spec §2). */
function withErrorScreen(routes: NonIndexRouteObject[]): NonIndexRouteObject[] {
  return routes.map((route) => ({ ...route, errorElement: <RouteErrorScreen /> }));
}

/** Signed-in screens: rendered inside the AppLayout (sidebar + header), each with its own access rule. */
const signedInRoutes: NonIndexRouteObject[] = [
  { path: '/unauthorized', element: guarded(page(() => import('@/features/auth/pages/UnauthorizedPage'))) },
  {
    path: '/demand-planning',
    // The planning page draws its own header (logo, title, help, Focus View, import/export, user menu).
    handle: { hasOwnHeader: true } satisfies AppRouteHandle,
    element: guarded(
      page(() => import('@/features/demand-planning/DemandPlanningPage')),
      ADMIN,
    ),
  },
  {
    path: '/demand-planning-review',
    element: guarded(
      page(() => import('@/features/control-tower/DemandPlanningReviewPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  {
    path: '/circor',
    element: guarded(
      page(() => import('@/features/circor/CircorHomePage')),
      CUSTOMER,
    ),
  },
  {
    path: '/optichain',
    element: guarded(
      page(() => import('@/features/optichain/OptichainPage')),
      ADMIN,
    ),
  },
  {
    path: '/qpoint',
    element: guarded(
      page(() => import('@/features/qpoint/QualityControlPage')),
      ADMIN,
    ),
  },
  {
    path: '/control-tower',
    element: guarded(
      page(() => import('@/features/control-tower/DemandPlanningReviewPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  {
    path: '/control-tower/forecast-accuracy-metrics',
    element: guarded(
      page(() => import('@/features/control-tower/ForecastAccuracyPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  {
    path: '/inventory-planning',
    element: guarded(
      page(() => import('@/features/inventory/InventoryPlanningPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  {
    path: '/control-tower/inventory-metrics',
    element: guarded(
      page(() => import('@/features/control-tower/InventoryMetricsPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  {
    path: '/control-tower/sd-match-trend',
    element: guarded(
      page(() => import('@/features/control-tower/SdMatchTrendPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  {
    path: '/control-tower/demand-planning-review',
    element: guarded(
      page(() => import('@/features/control-tower/DemandPlanningReviewPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
  { path: '/profile', element: guarded(page(() => import('@/features/profile/ProfilePage'))) },
  {
    path: '/exchange-rates',
    element: guarded(
      page(() => import('@/features/exchange-rates/ExchangeRatesPage')),
      ADMIN_OR_CUSTOMER,
    ),
  },
];

export const router = createBrowserRouter(
  withErrorScreen([
    { path: '/', element: page(() => import('@/features/landing/LandingPage')) },
    { path: '/auth/callback', element: page(() => import('@/features/auth/pages/AuthCallbackPage')) },
    { path: '/auth/debug', element: page(() => import('@/features/auth/pages/AuthDebugPage')) },
    // Where /api/auth/login hands over: starts the provider redirect with the browser's PKCE state.
    { path: '/auth/login', element: page(() => import('@/features/auth/pages/SignInRedirectPage')) },
    // Pathless layout route: any signed-in user gets the frame; each screen checks its groups.
    {
      element: guarded(page(() => import('@/features/shell/AppLayout'))),
      children: withErrorScreen(signedInRoutes),
    },
    { path: '*', element: page(() => import('@/features/errors/NotFoundPage')) },
  ]),
);
