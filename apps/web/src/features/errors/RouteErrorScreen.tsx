import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangleIcon, RefreshCwIcon, RotateCcwIcon } from 'lucide-react';
import { useCallback, useEffect } from 'react';
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';
import { AUTO_RETRY_DELAY_MS, isAutoRetriedError } from './retry-policy';
import { useTranslation } from 'react-i18next';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The error boundary of every route (spec §2 generic error screen). Try Again clears the data
 * cache and renders the route afresh; Reload Page reloads the browser tab.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();

  const retry = useCallback(() => {
    queryClient.clear();
    // Navigating to the same place makes the router drop the error and render the route again.
    void navigate(location, { replace: true });
  }, [queryClient, navigate, location]);

  useEffect(() => {
    if (!isAutoRetriedError(error)) return;
    const timer = window.setTimeout(retry, AUTO_RETRY_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [error, retry]);

  return (
    <div
      role="alert"
      className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-8 text-center"
    >
      <AlertTriangleIcon className="size-12 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold">{t('common:routeError.title')}</h1>
      <p className="max-w-md text-muted-foreground">{t('common:routeError.message')}</p>
      <div className="flex gap-2">
        <Button onClick={retry}>
          <RotateCcwIcon aria-hidden /> {t('common:routeError.retry')}
        </Button>
        <Button variant="outline" onClick={() => window.location.reload()}>
          <RefreshCwIcon aria-hidden /> {t('common:routeError.reload')}
        </Button>
      </div>
      <details className="max-w-xl text-left text-xs text-muted-foreground">
        <summary className="cursor-pointer">{t('common:routeError.details')}</summary>
        <pre className="mt-2 overflow-auto whitespace-pre-wrap">{describe(error)}</pre>
      </details>
    </div>
  );
}
