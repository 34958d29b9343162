import type { JWK } from 'jose';
import Provider, { type AdapterFactory, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { findDemoUser } from './demo-users';
import {
  PROVIDER_PAGE_CSP,
  renderProviderErrorPage,
  renderSignedOutPage,
  renderSignOutPage,
} from './sign-in-page';
import { signInLanguage, type SignInLanguage } from './sign-in-messages';

/** Scopes the app asks for (spec §1) plus offline_access, which the provider grants to renew silently. */
const GRANTABLE_SCOPES = ['openid', 'email', 'profile', 'offline_access'];

/** Token and session lifetimes, in seconds. Short ID/access tokens bound the damage of a leaked one. */
const LIFETIMES = {
  accessToken: 30 * 60,
  idToken: 30 * 60,
  authorizationCode: 60,
  interaction: 10 * 60,
  refreshToken: 12 * 60 * 60,
  session: 12 * 60 * 60,
} as const;

export type EmbeddedProviderOptions = {
  /** `${publicUrl}/oidc`. */
  issuer: string;
  clientId: string;
  /** Browser origins the app is served at; each gets origin + /auth/callback as a redirect URI. */
  appOrigins: readonly string[];
  groupsClaim: string;
  signingKeys: JWK[];
  cookieKeys: string[];
  /** Where sessions, grants, codes, tokens and interactions are kept (shared by all processes). */
  adapter: AdapterFactory;
};

/** The app's ui_locales when the request carried them (sign-out does), else the browser's language. */
function pageLanguage(ctx: KoaContextWithOIDC): SignInLanguage {
  const uiLocales: unknown = (ctx.oidc as { params?: Record<string, unknown> } | undefined)?.params
    ?.ui_locales;
  return signInLanguage(typeof uiLocales === 'string' ? uiLocales : undefined, ctx.get('accept-language'));
}

/** oidc-provider's own pages get the same look and the same strict CSP as our sign-in page. */
function sendProviderPage(ctx: KoaContextWithOIDC, html: string): void {
  ctx.type = 'html';
  ctx.set('content-security-policy', PROVIDER_PAGE_CSP);
  ctx.set('cache-control', 'no-store');
  ctx.body = html;
}

/**
 * A real OpenID Connect provider (oidc-provider) for demos and tests: authorization code with PKCE
 * (S256) for one public client, ID tokens that carry the groups claim, refresh tokens for silent
 * renewal, revocation. Users are the demo users; consent is implied for this first-party app.
 */
export function createEmbeddedProvider(options: EmbeddedProviderOptions): Provider {
  const { issuer, clientId, appOrigins, groupsClaim } = options;
  const configuration: Configuration = {
    adapter: options.adapter,
    clients: [
      {
        client_id: clientId,
        client_name: 'Planning Suite',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: appOrigins.map((origin) => `${origin}/auth/callback`),
        post_logout_redirect_uris: appOrigins.map((origin) => `${origin}/`),
      },
    ],
    jwks: { keys: options.signingKeys },
    cookies: { keys: options.cookieKeys },
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: GRANTABLE_SCOPES,
    claims: {
      openid: ['sub', groupsClaim],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    // The app reads name, email and groups from the ID token (spec §3), so they go in it.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => sendProviderPage(ctx, renderSignOutPage(form, pageLanguage(ctx))),
        postLogoutSuccessSource: async (ctx) => sendProviderPage(ctx, renderSignedOutPage(pageLanguage(ctx))),
      },
    },
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const user = findDemoUser(id);
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: async () => ({
          sub: user.id,
          email: user.email,
          email_verified: true,
          name: user.name,
          preferred_username: user.email,
          [groupsClaim]: [...user.groups],
        }),
      };
    },
    // First-party app: the grant covers whatever of the grantable scopes it asks for, no consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const grant = grantId
        ? await ctx.oidc.provider.Grant.find(grantId)
        : new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      if (!grant) return undefined;
      const requested = [...(ctx.oidc.requestParamScopes ?? [])].filter((s) => GRANTABLE_SCOPES.includes(s));
      grant.addOIDCScope([...new Set(['openid', ...requested])].join(' '));
      await grant.save();
      return grant;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: (_ctx, origin) => appOrigins.includes(origin),
    ttl: {
      AccessToken: LIFETIMES.accessToken,
      IdToken: LIFETIMES.idToken,
      AuthorizationCode: LIFETIMES.authorizationCode,
      Interaction: LIFETIMES.interaction,
      RefreshToken: LIFETIMES.refreshToken,
      Session: LIFETIMES.session,
      Grant: LIFETIMES.session,
    },
    renderError: async (ctx, out) =>
      sendProviderPage(
        ctx,
        renderProviderErrorPage(
          String(out.error ?? 'error'),
          String(out.error_description ?? ''),
          pageLanguage(ctx),
        ),
      ),
  };
  return new Provider(issuer, configuration);
}
