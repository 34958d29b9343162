import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthStatus } from '../components/AuthStatus';
import { loginStartFailed } from '../utils/session-actions';
import { loadAuthClient, redirectToSignIn } from '../utils/auth-client';
import { SESSION_KEYS } from '@/lib/auth/storage-keys';

/** One redirect per page load, even when React runs the effect twice. */
let hasStarted = false;

/**
 * /auth/login, where GET /api/auth/login sends the browser: starts the authorization-code + PKCE
 * redirect from here because the code verifier must be created and kept by the browser.
 */
export default function SignInRedirectPage() {
  const { t } = useTranslation();
  useEffect(() => {
    if (hasStarted) return;
    hasStarted = true;
    sessionStorage.removeItem(SESSION_KEYS.loggedOut);
    if (!sessionStorage.getItem(SESSION_KEYS.authRedirect)) {
      sessionStorage.setItem(SESSION_KEYS.authRedirect, '/demand-planning');
    }
    loadAuthClient()
      .then(redirectToSignIn)
      .catch((error: unknown) => {
        console.error('Sign-in redirect failed', error);
        window.alert(loginStartFailed());
        window.location.assign('/');
      });
  }, []);
  return <AuthStatus message={t('auth:status.redirectingToLogin')} />;
}
