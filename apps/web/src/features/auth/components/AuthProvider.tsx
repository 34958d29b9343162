import type { User } from 'oidc-client-ts';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AuthContext, type AuthState } from '../hooks/auth-context';
import { AUTH_TIMINGS, loadAuthClient, type AuthClient } from '../utils/auth-client';
import { authUserFromClaims, decodeJwtPayload, type AuthUser } from '../utils/auth-user';
import { LOCAL_KEYS } from '@/lib/auth/storage-keys';
import { signOutEverywhere, startSignIn } from '../utils/session-actions';
import { announceSignInError } from '../utils/announce-sign-in-error';
import { getDataToken, hasLiveStoredSession, storeTokens } from '@/lib/auth/token-store';

type AuthProviderProps = {
  children: ReactNode;
  /** In-app navigation (the router's), so the sign-out toast survives the move to /. */
  navigate: (path: string) => void;
};

function isTimeout(error: Error): boolean {
  return error.name === 'ErrorTimeout' || /timed out/i.test(error.message);
}

function userFrom(oidcUser: User | null, client: AuthClient | null): AuthUser | null {
  if (!client) return null;
  const claims = oidcUser
    ? (oidcUser.profile as Record<string, unknown>)
    : decodeJwtPayload(localStorage.getItem(LOCAL_KEYS.idToken) ?? '');
  return claims ? authUserFromClaims(claims, client.config.groupsClaim).user : null;
}

/**
 * Library events: a loaded user (sign-in or silent renewal) refreshes the stored token keys; a
 * renewal that timed out is tried again after 5 s.
 */
function subscribe(
  client: AuthClient,
  handlers: { onLoaded: (user: User) => void; onUnloaded: () => void; onExpired: () => void },
): () => void {
  const { events } = client.manager;
  let retry: number | undefined;
  const onLoaded = (user: User) => {
    storeTokens({
      accessToken: user.access_token,
      idToken: user.id_token,
      refreshToken: user.refresh_token,
      tokenType: user.token_type,
      expiresIn: user.expires_in,
    });
    handlers.onLoaded(user);
  };
  const onRenewError = (renewError: Error) => {
    console.warn('Renew silent failed', renewError);
    if (!isTimeout(renewError)) return;
    window.clearTimeout(retry);
    retry = window.setTimeout(() => {
      client.manager.signinSilent().catch((e: unknown) => console.warn('Renew silent failed', e));
    }, AUTH_TIMINGS.renewalRetryMs);
  };
  events.addUserLoaded(onLoaded);
  events.addUserUnloaded(handlers.onUnloaded);
  events.addAccessTokenExpired(handlers.onExpired);
  events.addSilentRenewError(onRenewError);
  return () => {
    window.clearTimeout(retry);
    events.removeUserLoaded(onLoaded);
    events.removeUserUnloaded(handlers.onUnloaded);
    events.removeAccessTokenExpired(handlers.onExpired);
    events.removeSilentRenewError(onRenewError);
  };
}

/**
 * Holds the sign-in state for the app (spec §4 'Sign-in'): loading at first; authenticated when the
 * OIDC library has an unexpired user or both tokens are stored and unexpired; renews the access
 * token silently 60 s before expiry and retries a timed-out renewal after 5 s.
 */
export function AuthProvider({ children, navigate }: AuthProviderProps) {
  const [client, setClient] = useState<AuthClient | null>(null);
  const [oidcUser, setOidcUser] = useState<User | null>(null);
  const [isLoading, setIsLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  // When "authenticated" was last re-evaluated against the clock: on token expiry and sign-out.
  const [checkedAt, setCheckedAt] = useState(() => Date.now());

  useEffect(() => {
    let isCancelled = false;
    let unsubscribe = () => {};
    loadAuthClient()
      .then(async (loaded) => {
        if (isCancelled) return;
        // Subscribed before any screen sees the client, so no sign-in or renewal goes unnoticed.
        unsubscribe = subscribe(loaded, {
          onLoaded: (user) => {
            setOidcUser(user);
            setError(null);
          },
          onUnloaded: () => setOidcUser(null),
          onExpired: () => setCheckedAt(Date.now()),
        });
        const user = await loaded.manager.getUser();
        if (isCancelled) return;
        setClient(loaded);
        setOidcUser(user);
      })
      .catch((cause: unknown) => {
        if (!isCancelled) setError(cause instanceof Error ? cause : new Error(String(cause)));
      })
      .finally(() => {
        if (!isCancelled) setIsLoading(false);
      });
    return () => {
      isCancelled = true;
      unsubscribe();
    };
  }, []);

  // A failed sign-in lands on /?error=… (spec §8); say why, whichever page is shown there.
  useEffect(() => {
    if (window.location.pathname === '/') announceSignInError(window.location.search);
  }, []);

  const signOut = useCallback(() => {
    void signOutEverywhere(navigate).finally(() => {
      setOidcUser(null);
      setCheckedAt(Date.now());
    });
  }, [navigate]);

  const signIn = useCallback(() => startSignIn('/demand-planning'), []);

  const state = useMemo<AuthState>(() => {
    const isAuthenticated = (!!oidcUser && !oidcUser.expired) || hasLiveStoredSession(checkedAt);
    return {
      isLoading,
      isAuthenticated: !isLoading && isAuthenticated,
      user: isAuthenticated ? userFrom(oidcUser, client) : null,
      error,
      signIn,
      signOut,
      getDataToken,
      client,
    };
  }, [isLoading, oidcUser, client, error, signIn, signOut, checkedAt]);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}
