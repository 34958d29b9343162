import type { User } from 'oidc-client-ts';
import type { AuthClient } from './auth-client';
import { authUserFromClaims } from './auth-user';
import { clientContextFor } from '@/lib/auth/groups';
import { postLoginPath } from '@/lib/auth/post-login-path';
import { LOCAL_KEYS, SESSION_KEYS } from '@/lib/auth/storage-keys';
import { storeTokens } from '@/lib/auth/token-store';

/** Spec §9 callback timings. */
export const CALLBACK_TIMINGS = {
  timeoutMs: 10_000,
  /** A processing flag older than this belongs to a run that died; it is cleared and the callback retried. */
  stuckAfterMs: 8_000,
  clearFlagAfterMs: 1_000,
  pollMs: 200,
} as const;

export type CallbackOutcome = { kind: 'redirect'; to: string } | { kind: 'failed'; message: string };

const redirect = (to: string): CallbackOutcome => ({ kind: 'redirect', to });

/** `/?error=…&error_description=…` (spec §8). */
export function errorRedirect(error: string, description?: string | null): CallbackOutcome {
  const params = new URLSearchParams({ error });
  if (description) params.set('error_description', description);
  return redirect(`/?${params.toString()}`);
}

/** Maps a code-exchange failure to spec §8: invalid_grant → auth_expired; other token errors → token_exchange_failed. */
export function exchangeFailure(error: unknown): CallbackOutcome {
  if (error instanceof Error && error.name === 'ErrorResponse') {
    const { error: code, error_description: detail } = error as Error & {
      error?: string;
      error_description?: string | null;
    };
    if (code === 'invalid_grant') return errorRedirect('auth_expired', 'Please sign in again');
    // RFC 6749 §5.2: token errors come with 400, or 401 for a client that failed to authenticate.
    const status = code === 'invalid_client' ? 401 : 400;
    return errorRedirect(
      'token_exchange_failed',
      `Token exchange failed: ${status} - ${detail ?? code ?? 'unknown'}`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const httpFailure = /^(.*?)\s*\((\d{3})\)(?::\s*(.*))?$/.exec(message);
  if (httpFailure) {
    return errorRedirect(
      'token_exchange_failed',
      `Token exchange failed: ${httpFailure[2]} - ${httpFailure[3] ?? httpFailure[1] ?? ''}`.trim(),
    );
  }
  return { kind: 'failed', message };
}

const sleep = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** GET user-info with the access token (spec §7); the answer is kept as auth_user when it is OK. */
async function storeUserInfo(client: AuthClient, user: User): Promise<void> {
  try {
    const endpoint = await client.manager.metadataService.getUserInfoEndpoint();
    const response = await fetch(endpoint, { headers: { Authorization: `Bearer ${user.access_token}` } });
    if (response.ok) localStorage.setItem(LOCAL_KEYS.authUser, JSON.stringify(await response.json()));
  } catch (error) {
    // The ID token already names the user; user-info is a convenience.
    console.warn('User-info call failed', error);
  }
}

/** After the exchange: tokens, user-info, client context and current user stored; where to go next. */
async function finishSignIn(client: AuthClient, user: User): Promise<CallbackOutcome> {
  storeTokens({
    accessToken: user.access_token,
    idToken: user.id_token,
    refreshToken: user.refresh_token,
    tokenType: user.token_type,
    expiresIn: user.expires_in,
  });
  await storeUserInfo(client, user);
  const { user: authUser, groupsError } = authUserFromClaims(user.profile, client.config.groupsClaim);
  localStorage.setItem(LOCAL_KEYS.clientContext, clientContextFor(authUser.groups));
  localStorage.setItem(LOCAL_KEYS.groups, JSON.stringify(authUser.groups));
  localStorage.setItem(
    LOCAL_KEYS.currentUser,
    JSON.stringify({ name: authUser.name, email: authUser.email, role: authUser.role }),
  );
  const target = sessionStorage.getItem(SESSION_KEYS.authRedirect);
  sessionStorage.removeItem(SESSION_KEYS.authRedirect);
  if (groupsError) {
    console.warn('Could not read the groups claim', groupsError);
    return redirect('/demand-planning');
  }
  return redirect(postLoginPath(authUser.groups, target));
}

/** Waits while another run holds a fresh processing flag; a flag older than 8 s is cleared. */
async function waitForOtherRun(): Promise<void> {
  for (;;) {
    if (sessionStorage.getItem(SESSION_KEYS.callbackProcessing) !== 'true') return;
    const startedAt = Number(sessionStorage.getItem(SESSION_KEYS.callbackStartedAt) ?? 0);
    if (Date.now() - startedAt > CALLBACK_TIMINGS.stuckAfterMs) {
      sessionStorage.removeItem(SESSION_KEYS.callbackProcessing);
      sessionStorage.removeItem(SESSION_KEYS.callbackStartedAt);
      return;
    }
    await sleep(CALLBACK_TIMINGS.pollMs);
  }
}

function clearFlagSoon(): void {
  const clear = () => {
    sessionStorage.removeItem(SESSION_KEYS.callbackProcessing);
    sessionStorage.removeItem(SESSION_KEYS.callbackStartedAt);
  };
  window.setTimeout(clear, CALLBACK_TIMINGS.clearFlagAfterMs);
  // Leaving the page within that second must not leave a flag the next sign-in waits 8 s on.
  window.addEventListener('pagehide', clear, { once: true });
}

async function exchangeCode(client: AuthClient, url: string, code: string): Promise<CallbackOutcome> {
  const isProcessed = () => sessionStorage.getItem(SESSION_KEYS.processedCode) === code;
  if (isProcessed()) return redirect('/demand-planning');
  await waitForOtherRun();
  if (isProcessed()) return redirect('/demand-planning');
  sessionStorage.setItem(SESSION_KEYS.callbackProcessing, 'true');
  sessionStorage.setItem(SESSION_KEYS.callbackStartedAt, String(Date.now()));
  try {
    let user: User;
    try {
      user = await client.manager.signinRedirectCallback(url);
    } finally {
      // Spent either way: the provider accepts a code once.
      sessionStorage.setItem(SESSION_KEYS.processedCode, code);
    }
    return await finishSignIn(client, user);
  } catch (error) {
    return exchangeFailure(error);
  } finally {
    clearFlagSoon();
  }
}

/** In-flight exchanges by code, so a re-run of the page effect joins the first instead of spending the code twice. */
const inFlight = new Map<string, Promise<CallbackOutcome>>();

/**
 * Spec §4 'Sign-in callback': an error parameter goes back to / with it; a code already processed
 * goes to /demand-planning; otherwise the code is exchanged and the user routed by group; no code
 * goes to /demand-planning when signed in, else to /?error=no_authorization_code.
 */
export function runCallback(
  client: AuthClient,
  url: string,
  isAuthenticated: boolean,
): Promise<CallbackOutcome> {
  const params = new URL(url).searchParams;
  const error = params.get('error');
  if (error) return Promise.resolve(errorRedirect(error, params.get('error_description')));
  const code = params.get('code');
  if (!code) {
    return Promise.resolve(
      isAuthenticated ? redirect('/demand-planning') : errorRedirect('no_authorization_code'),
    );
  }
  let pending = inFlight.get(code);
  if (!pending) {
    pending = exchangeCode(client, url, code);
    inFlight.set(code, pending);
  }
  return pending;
}
