import { Loader2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useAuth } from '../hooks/useAuth';
import { CALLBACK_TIMINGS, errorRedirect, runCallback } from '../utils/callback-flow';
import { announceSignInError } from '../utils/announce-sign-in-error';

type Phase = { kind: 'working' } | { kind: 'redirecting' } | { kind: 'failed'; message: string };

/**
 * /auth/callback (spec §2, §4): 'Completing sign-in...', then 'Redirecting...' with a link home;
 * on failure 'Sign-in failed: {message}' and Return to Home. Gives up after 10 s with
 * /?error=auth_timeout.
 */
export default function AuthCallbackPage() {
  const { isLoading, isAuthenticated, client, error } = useAuth();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ kind: 'working' });

  useEffect(() => {
    if (isLoading || !client) return;
    let isCurrent = true;
    const timeout = window.setTimeout(() => {
      const outcome = errorRedirect('auth_timeout');
      if (!isCurrent || outcome.kind !== 'redirect') return;
      announceSignInError(outcome.to.slice(1));
      void navigate(outcome.to, { replace: true });
    }, CALLBACK_TIMINGS.timeoutMs);
    void runCallback(client, window.location.href, isAuthenticated).then((outcome) => {
      window.clearTimeout(timeout);
      if (!isCurrent) return;
      if (outcome.kind === 'failed') {
        setPhase(outcome);
        return;
      }
      setPhase({ kind: 'redirecting' });
      if (outcome.to.startsWith('/?')) announceSignInError(outcome.to.slice(1));
      void navigate(outcome.to, { replace: true });
    });
    return () => {
      isCurrent = false;
      window.clearTimeout(timeout);
    };
  }, [isLoading, client, isAuthenticated, navigate]);

  // Without a client (its configuration failed to load) there is nothing to complete.
  const shown: Phase =
    !isLoading && !client
      ? { kind: 'failed', message: error?.message ?? t('auth:callback.unavailable') }
      : phase;

  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-8 text-foreground">
      <div className="w-full max-w-md rounded-lg border border-border bg-card p-8 text-center shadow-sm">
        {shown.kind === 'failed' ? (
          <>
            <p role="alert" className="font-medium text-destructive">
              {t('auth:callback.failed', { message: shown.message })}
            </p>
            <Button asChild className="mt-6">
              <Link to="/">{t('common:returnHome')}</Link>
            </Button>
          </>
        ) : (
          <div role="status" aria-live="polite" className="flex flex-col items-center gap-3">
            <Loader2Icon className="size-8 animate-spin text-primary" aria-hidden />
            <p className="font-medium">
              {shown.kind === 'working' ? t('auth:callback.completing') : t('auth:callback.redirecting')}
            </p>
            {shown.kind === 'redirecting' && (
              <p className="text-sm text-muted-foreground">
                {t('auth:callback.notMoving')}{' '}
                <Link to="/" className="text-primary underline-offset-4 hover:underline">
                  {t('auth:callback.returnHome')}
                </Link>
              </p>
            )}
          </div>
        )}
      </div>
    </main>
  );
}
