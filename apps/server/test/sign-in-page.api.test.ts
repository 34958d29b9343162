import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

/** The embedded provider's sign-in page in the user's language. */
describe.each(backends)('provider sign-in page languages on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server?.close());

  /** Starts an authorization request as the web app does and opens the sign-in page it leads to. */
  async function signInPage(
    headers: Record<string, string>,
    extraParams: Record<string, string> = {},
  ): Promise<{ response: Response; html: string; cookie: string; location: string }> {
    const authorize = new URL('/oidc/auth', server.baseUrl);
    authorize.search = new URLSearchParams({
      client_id: 'planning-suite',
      redirect_uri: `${server.baseUrl}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      state: randomBytes(8).toString('hex'),
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
      ...extraParams,
    }).toString();
    const started = await fetch(authorize, { redirect: 'manual' });
    const location = started.headers.get('location') ?? '';
    expect(location).toContain('/oidc/interaction/');
    const cookie = started.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; ');
    const response = await fetch(new URL(location, server.baseUrl), { headers: { ...headers, cookie } });
    return { response, html: await response.text(), cookie, location };
  }

  it('answers Accept-Language: de with the German page, its CSP intact', async () => {
    const { response, html } = await signInPage({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' });
    expect(response.status).toBe(200);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<title>Anmelden - Planning Suite</title>');
    expect(html).toContain('<label for="password">Passwort</label>');
    expect(html).toContain('<h2>Demo-Benutzer</h2>');
    expect(html).toContain('aria-label="Als Demo Admin anmelden"');
    expect(html).not.toContain('Sign in');
    expect(response.headers.get('content-security-policy')).toMatch(/style-src 'sha256-[\w+/=]+'/);
  });

  it('keeps the English page for English, an unknown language or no header', async () => {
    const variants: Record<string, string>[] = [
      { 'accept-language': 'en-GB' },
      { 'accept-language': 'pt-BR' },
      {},
    ];
    for (const headers of variants) {
      const { html } = await signInPage(headers);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<h1>Sign in</h1><p class="sub">Demo identity provider</p>');
      expect(html).toContain('<h2>Demo users</h2><p>This provider is for demos and tests only.</p>');
    }
  });

  it('lets the app’s ui_locales (the user’s setting) win over the browser’s language', async () => {
    const { html } = await signInPage({ 'accept-language': 'de' }, { ui_locales: 'fr' });
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<button class="primary" type="submit">Se connecter</button>');
  });

  it('refuses a wrong password in the page’s language', async () => {
    const { cookie, location } = await signInPage({ 'accept-language': 'es' });
    const refused = await fetch(new URL(`${location}/login`, server.baseUrl), {
      method: 'POST',
      headers: { 'accept-language': 'es', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'admin@demo.local', password: 'wrong' }).toString(),
    });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain(
      '<p class="error" role="alert">Correo electrónico o contraseña incorrectos.</p>',
    );
  });
});
