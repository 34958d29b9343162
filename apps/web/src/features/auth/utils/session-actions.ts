import { toast } from '@/components/ui/toast-store';
import { i18next } from '@/i18n/i18n';
import { currentAuthClient, redirectToSignIn } from './auth-client';
import { LOCAL_KEYS, SESSION_KEYS } from '@/lib/auth/storage-keys';
import { clearTokens } from '@/lib/auth/token-store';

export const LOGIN_FALLBACK_PATH = '/api/auth/login';
/** The alert when the provider's sign-in page cannot be reached, in the interface language. */
export const loginStartFailed = () => i18next.t('auth:loginStartFailed');
/** Spec §9: sign-out redirect delay. */
export const SIGN_OUT_REDIRECT_MS = 100;

/**
 * The landing page's sign-in action (spec §2): clears the logged-out flag, stores the post-login
 * target and sends the browser to the provider's sign-in page; without a loaded OIDC client it
 * falls back to /api/auth/login. A target already stored (the deep link a signed-out or expired
 * user opened before being sent here) is kept: the default only fills an empty slot.
 */
export function startSignIn(target = '/demand-planning'): void {
  sessionStorage.removeItem(SESSION_KEYS.loggedOut);
  if (!sessionStorage.getItem(SESSION_KEYS.authRedirect))
    sessionStorage.setItem(SESSION_KEYS.authRedirect, target);
  const client = currentAuthClient();
  if (!client) {
    window.location.assign(LOGIN_FALLBACK_PATH);
    return;
  }
  redirectToSignIn(client).catch((error: unknown) => {
    console.error('Sign-in redirect failed', error);
    window.alert(loginStartFailed());
  });
}

function expireAllCookies(): void {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

/**
 * Spec §4 'Sign Out': clears isAuthenticated, currentUser and userSettings, all session storage
 * except loggedOut=true, all cookies; toasts 'Logged Out'; goes to / after 100 ms. Beyond the spec
 * it also drops every stored token and revokes the refresh and access tokens at the provider:
 * the spec's stored-token check would otherwise still count the user as signed in.
 */
export async function signOutEverywhere(navigate: (path: string) => void): Promise<void> {
  const client = currentAuthClient();
  if (client) {
    // Revocation is best effort: the provider may be unreachable, the local sign-out still happens.
    await client.manager
      .revokeTokens()
      .catch((error: unknown) => console.warn('Token revocation failed', error));
    await client.manager.removeUser();
  }
  localStorage.removeItem(LOCAL_KEYS.isAuthenticated);
  localStorage.removeItem(LOCAL_KEYS.currentUser);
  localStorage.removeItem(LOCAL_KEYS.userSettings);
  // The next user to sign in here must get their own settings from the server.
  localStorage.removeItem(LOCAL_KEYS.userSettingsSyncedAt);
  clearTokens();
  sessionStorage.clear();
  sessionStorage.setItem(SESSION_KEYS.loggedOut, 'true');
  expireAllCookies();
  toast({ title: i18next.t('auth:loggedOut.title'), description: i18next.t('auth:loggedOut.description') });
  window.setTimeout(() => navigate('/'), SIGN_OUT_REDIRECT_MS);
}
