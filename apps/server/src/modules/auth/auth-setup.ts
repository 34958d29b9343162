import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import type { Authenticator } from '../../lib/request-context';
import { registerAuthRoutes } from './auth.routes';
import { createAuthenticator } from './authenticator';
import { createEmbeddedProvider } from './embedded-provider';
import { databaseAdapterFactory } from './provider-storage';
import { registerProviderRoutes, PROVIDER_PREFIX } from './provider-routes';
import { loadOrCreateProviderKeys, publicJwks } from './signing-keys';
import { createTokenVerifier, localKeys, remoteKeys } from './token-verifier';

/** Scopes the browser asks for (spec §1). */
export const SIGN_IN_SCOPES = 'openid email profile';
/** The web app's client id at the embedded provider. */
export const EMBEDDED_CLIENT_ID = 'planning-suite';

/** What the browser needs to start sign-in (GET /api/auth/config). */
export type AuthClientConfig = { issuer: string; clientId: string; scopes: string; groupsClaim: string };

/** Sign-in wired into the app: who verifies tokens, what the browser is told, which routes exist. */
export type AuthSetup = {
  mode: 'embedded' | 'external';
  clientConfig: AuthClientConfig;
  authenticate: Authenticator;
  /** Adds /api/auth/* and, for the embedded provider, /oidc/* (which stores its state in `database`). */
  register: (app: FastifyInstance, database: DatabaseHandle) => Promise<void>;
};

/** The address users reach the suite at. */
export function publicUrlOf(config: AppConfig): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

/**
 * The origins the app may be opened at: the public URL, its localhost/127.0.0.1 twin, and the
 * Vite dev server (which proxies /api and /oidc), so a local demo works whichever a person types.
 */
function appOriginsFor(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  const origins = new Set([url.origin]);
  const isLoopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (isLoopback) {
    for (const host of ['127.0.0.1', 'localhost']) {
      origins.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
      origins.add(`http://${host}:5173`);
    }
  }
  return [...origins];
}

/**
 * External provider when OIDC_ISSUER is set (Cognito, Keycloak, Entra, Auth0); otherwise the
 * embedded demo provider at PUBLIC_URL/oidc, whose keys persist in `keysFile` when given.
 */
export async function createAuthSetup(
  config: AppConfig,
  options: { keysFile?: string } = {},
): Promise<AuthSetup> {
  const groupsClaim = config.OIDC_GROUPS_CLAIM;
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID) {
    const issuer = config.OIDC_ISSUER;
    const clientId = config.OIDC_CLIENT_ID;
    const audiences = [clientId, ...(config.OIDC_AUDIENCE ? [config.OIDC_AUDIENCE] : [])];
    const clientConfig = { issuer, clientId, scopes: SIGN_IN_SCOPES, groupsClaim };
    return {
      mode: 'external',
      clientConfig,
      authenticate: createAuthenticator({
        verify: createTokenVerifier({ issuer, audiences, keys: remoteKeys(issuer) }),
        groupsClaim,
      }),
      register: async (app) => registerAuthRoutes(app, clientConfig),
    };
  }

  const issuer = `${publicUrlOf(config)}${PROVIDER_PREFIX}`;
  const keys = await loadOrCreateProviderKeys(options.keysFile);
  const audiences = [EMBEDDED_CLIENT_ID, ...(config.OIDC_AUDIENCE ? [config.OIDC_AUDIENCE] : [])];
  const clientConfig = { issuer, clientId: EMBEDDED_CLIENT_ID, scopes: SIGN_IN_SCOPES, groupsClaim };
  return {
    mode: 'embedded',
    clientConfig,
    authenticate: createAuthenticator({
      verify: createTokenVerifier({ issuer, audiences, keys: localKeys(publicJwks(keys.signingKeys)) }),
      groupsClaim,
    }),
    register: async (app, database) => {
      await registerAuthRoutes(app, clientConfig);
      const provider = createEmbeddedProvider({
        issuer,
        clientId: EMBEDDED_CLIENT_ID,
        appOrigins: appOriginsFor(publicUrlOf(config)),
        groupsClaim,
        signingKeys: keys.signingKeys,
        cookieKeys: keys.cookieKeys,
        adapter: databaseAdapterFactory(database.db),
      });
      await registerProviderRoutes(app, provider, database.db);
    },
  };
}
