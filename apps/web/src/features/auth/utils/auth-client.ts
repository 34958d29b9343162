import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { z } from 'zod';
import { i18next } from '@/i18n/i18n';
import { takeAuthConfigResponse } from '@/lib/auth/auth-config-request';

/** What GET /api/auth/config tells the browser about the identity provider. */
const ZAuthClientConfigSchema = z.object({
  issuer: z.string().min(1),
  clientId: z.string().min(1),
  scopes: z.string().min(1),
  groupsClaim: z.string().min(1),
});
export type AuthClientConfig = z.infer<typeof ZAuthClientConfigSchema>;

export type AuthClient = { config: AuthClientConfig; manager: UserManager };

/** Spec §9 sign-in timings. */
export const AUTH_TIMINGS = {
  /** Seconds before expiry the library raises 'expiring' and renews silently. */
  tokenExpiringWarningSeconds: 60,
  silentRequestTimeoutSeconds: 10,
  /** A renewal that timed out is tried again after this long. */
  renewalRetryMs: 5000,
  /** Pending sign-in state older than this is discarded. */
  staleStateSeconds: 900,
} as const;

let loading: Promise<AuthClient> | null = null;
let loaded: AuthClient | null = null;

/** The loaded client, if the app has one yet (non-React code such as the landing sign-in uses it). */
export function currentAuthClient(): AuthClient | null {
  return loaded;
}

/**
 * Sends the browser to the provider's sign-in page, asking for it in the interface language
 * (OIDC ui_locales), so a user who chose German signs in in German whatever the browser says.
 */
export function redirectToSignIn(client: AuthClient): Promise<void> {
  return client.manager.signinRedirect({ ui_locales: i18next.resolvedLanguage ?? i18next.language });
}

/**
 * Loads the provider settings from the server and creates the OIDC client once per page: the
 * authorization-code flow with PKCE, a fresh login prompt every time, tokens kept in local storage
 * under oidc.user:* (spec §3) and silent renewal (refresh token) ahead of expiry.
 */
export function loadAuthClient(): Promise<AuthClient> {
  loading ??= (async () => {
    const response = await takeAuthConfigResponse();
    if (!response.ok) throw new Error(i18next.t('auth:configUnavailable', { status: response.status }));
    const body = (await response.json()) as { data?: unknown };
    const config = ZAuthClientConfigSchema.parse(body.data);
    const origin = window.location.origin;
    const manager = new UserManager({
      authority: config.issuer,
      client_id: config.clientId,
      redirect_uri: `${origin}/auth/callback`,
      post_logout_redirect_uri: `${origin}/`,
      response_type: 'code',
      scope: config.scopes,
      prompt: 'login',
      userStore: new WebStorageStateStore({ store: window.localStorage }),
      automaticSilentRenew: true,
      accessTokenExpiringNotificationTimeInSeconds: AUTH_TIMINGS.tokenExpiringWarningSeconds,
      silentRequestTimeoutInSeconds: AUTH_TIMINGS.silentRequestTimeoutSeconds,
      staleStateAgeInSeconds: AUTH_TIMINGS.staleStateSeconds,
      // The callback page loads user-info itself (stored as auth_user); session iframes are off.
      loadUserInfo: false,
      monitorSession: false,
      revokeTokenTypes: ['access_token', 'refresh_token'],
      // RFC 7009: revocation answers 200 with an empty body the client ignores; oidc-provider sends
      // it as text/plain, which the client refuses ("Invalid response Content-Type") unless listed.
      revokeTokenAdditionalContentTypes: ['text/plain'],
    });
    loaded = { config, manager };
    return loaded;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
