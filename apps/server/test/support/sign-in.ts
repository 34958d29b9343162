import { createHash, randomBytes } from 'node:crypto';

/** Tokens from the provider's token endpoint. */
export type TokenSet = {
  id_token: string;
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
};

const base64url = (buffer: Buffer) => buffer.toString('base64url');

/** A minimal cookie jar: the provider's interaction and session cookies across redirects. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Signs in at the embedded provider exactly as a browser does: authorization request with PKCE
 * (S256), the provider's sign-in form, the redirect back with a code, and the code exchange at the
 * token endpoint. Used by API tests and the bench to obtain real tokens.
 */
export async function signInOverHttp(
  baseUrl: string,
  credentials: { email: string; password: string },
  client: {
    clientId?: string;
    redirectUri?: string;
    /** Another instance behind the same load balancer that takes over after the authorize request. */
    completeAt?: string;
  } = {},
): Promise<TokenSet> {
  const clientId = client.clientId ?? 'planning-suite';
  const redirectUri = client.redirectUri ?? `${baseUrl}/auth/callback`;
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const state = base64url(randomBytes(16));
  const jar = new CookieJar();
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(response);
    return response;
  };

  const authorize = new URL('/oidc/auth', baseUrl);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    prompt: 'login',
    state,
    nonce: base64url(randomBytes(16)),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  let response = await go(authorize.href);
  const interactionLocation = response.headers.get('location');
  if (!interactionLocation?.includes('/oidc/interaction/'))
    throw new Error(`authorize did not ask for sign-in (HTTP ${response.status}): ${await response.text()}`);
  const finisher = client.completeAt ?? baseUrl;
  const onFinisher = (location: string) => {
    const url = new URL(location, baseUrl);
    return new URL(`${url.pathname}${url.search}`, finisher).href;
  };
  const interaction = onFinisher(interactionLocation);
  await go(interaction);
  response = await go(`${interaction}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(credentials).toString(),
  });
  let location = response.headers.get('location');
  if (!location) {
    const retryAfter = response.headers.get('retry-after');
    throw new Error(
      `sign-in refused (HTTP ${response.status}${retryAfter ? `, Retry-After ${retryAfter}` : ''})`,
    );
  }
  for (let hops = 0; !location.startsWith(redirectUri); hops += 1) {
    if (hops > 5) throw new Error(`too many redirects, last ${location}`);
    response = await go(onFinisher(location));
    location = response.headers.get('location') ?? '';
    if (!location)
      throw new Error(`redirect chain ended at HTTP ${response.status}: ${await response.text()}`);
  }
  const callback = new URL(location);
  if (callback.searchParams.get('state') !== state) throw new Error('state mismatch');
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${location}`);

  const token = await fetch(new URL('/oidc/token', finisher), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  if (!token.ok) throw new Error(`token exchange failed: HTTP ${token.status} ${await token.text()}`);
  return (await token.json()) as TokenSet;
}
