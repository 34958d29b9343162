import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { ProtectedRoute } from '@/features/auth/components/ProtectedRoute';

/** Groups of the identity token that open each screen (spec §2 route table, §6). */
const ADMIN = ['admin'];
const ADMIN_OR_CUSTOMER = ['admin', 'circor'];
const CUSTOMER = ['circor'];

/** Route bundles load on first visit. */
function page(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Page = lazy(load);
  return (
    <Suspense fallback={<div className="p-8 text-muted-foreground">Loading...</div>}>
      <Page />
    </Suspense>
  );
}

function guarded(node: ReactNode, allowedGroups?: string[]): ReactNode {
  return <ProtectedRoute allowedGroups={allowedGroups}>{node}</ProtectedRoute>;
}

export const router = createBrowserRouter([
  { path: '/', element: page(() => import('@/features/landing/LandingPage')) },
  { path: '/auth/callback', element: page(() => import('@/features/auth/pages/AuthCallbackPage')) },
  { path: '/auth/debug', element: page(() => import('@/features/auth/pages/AuthDebugPage')) },
  { path: '/unauthorized', element: guarded(page(() => import('@/features/auth/pages/UnauthorizedPage'))) },
  {
    path: '/demand-planning',
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
      page(() => import('@/features/shell/pages/OptichainPage')),
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
  { path: '*', element: page(() => import('@/features/errors/NotFoundPage')) },
]);
