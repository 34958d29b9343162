import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS, signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('sign-in through the embedded provider', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('signs the admin in from the landing page with PKCE and lands on /demand-planning', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/');
    await page.getByRole('button', { name: 'Login' }).first().click();
    await page.locator('#email').waitFor();
    const authorize = new URL(page.url());
    expect(authorize.pathname).toMatch(/^\/oidc\/interaction\//);
    await screenshot(page, 'auth-provider-sign-in');
    await page.locator('#email').fill(DEMO_USERS.admin.email);
    await page.locator('#password').fill(DEMO_USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/demand-planning', { timeout: 30_000 });
    const stored = await page.evaluate(() => ({
      isAuthenticated: localStorage.getItem('isAuthenticated'),
      hasAccess: !!localStorage.getItem('access_token'),
      hasId: !!localStorage.getItem('id_token'),
      expiresAt: Number(localStorage.getItem('token_expires_at')),
      context: localStorage.getItem('client_context'),
      currentUser: JSON.parse(localStorage.getItem('currentUser') ?? 'null') as unknown,
      authUser: JSON.parse(localStorage.getItem('auth_user') ?? 'null') as { email?: string } | null,
      oidcUsers: Object.keys(localStorage).filter((k) => k.startsWith('oidc.user:')).length,
    }));
    expect(stored).toMatchObject({
      isAuthenticated: 'true',
      hasAccess: true,
      hasId: true,
      context: 'admin',
      currentUser: { name: 'Demo Admin', email: 'admin@demo.local', role: 'Demand Planner' },
      oidcUsers: 1,
    });
    expect(stored.authUser?.email).toBe('admin@demo.local');
    expect(stored.expiresAt).toBeGreaterThan(Date.now());
    await context.close();
  });

  it('sends the circor user to /circor', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'circor');
    expect(pathOf(page)).toBe('/circor');
    expect(await page.evaluate(() => localStorage.getItem('client_context'))).toBe('circor');
    await context.close();
  });

  it('sends a user in no group to /unauthorized, which lists no roles', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'viewer');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText('No roles assigned').waitFor();
    await page.getByRole('button', { name: 'Go Back' }).waitFor();
    await screenshot(page, 'auth-unauthorized');
    await context.close();
  });

  it('shows a circor user Access Denied on /demand-planning and keeps them out', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'circor');
    await page.goto('/demand-planning');
    await page.waitForURL((url) => url.pathname === '/unauthorized');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText('/demand-planning requires: admin').waitFor();
    await page.getByText('circor', { exact: true }).waitFor();
    await screenshot(page, 'auth-access-denied-circor');
    await context.close();
  });

  it('sends a signed-out visitor of a protected screen to / and back there after sign-in', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/control-tower/inventory-metrics');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => sessionStorage.getItem('auth_redirect'))).toBe(
      '/control-tower/inventory-metrics',
    );
    await page.goto('/auth/login');
    await page.locator('#email').fill(DEMO_USERS.circor.email);
    await page.locator('#password').fill(DEMO_USERS.circor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/control-tower/inventory-metrics', { timeout: 30_000 });
    await context.close();
  });

  it('refuses a wrong password on the provider page', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/api/auth/login');
    await page.locator('#email').fill(DEMO_USERS.admin.email);
    await page.locator('#password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Invalid email or password.').waitFor();
    expect(pathOf(page)).toMatch(/^\/oidc\/interaction\//);
    await context.close();
  });

  it('spends an authorization code once: reopening the callback goes to /demand-planning', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    let callbackUrl = '';
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/auth/callback?code='))
        callbackUrl = frame.url();
    });
    await signIn(page, 'circor');
    expect(callbackUrl).toContain('code=');
    await page.goto(callbackUrl);
    // Not exchanged again (that would fail with auth_expired); circor is then denied the admin screen.
    await page.waitForURL((url) => url.pathname === '/unauthorized');
    expect(await page.evaluate(() => localStorage.getItem('id_token'))).toBeTruthy();
    await context.close();
  });

  it('goes to /?error=auth_timeout when the code exchange hangs for 10 s', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.route('**/oidc/token', () => {
      // Never answered: the callback's own 10 s timeout must fire.
    });
    await page.goto('/api/auth/login');
    await page.locator('#email').fill(DEMO_USERS.admin.email);
    await page.locator('#password').fill(DEMO_USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Completing sign-in...').waitFor();
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('error') === 'auth_timeout', {
      timeout: 20_000,
    });
    await page.getByText('Sign-in took too long. Please try again.').first().waitFor();
    await context.close();
  });

  it('passes a provider error back to / (user cancelled at the sign-in page)', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/api/auth/login');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('error') === 'access_denied');
    await page.getByText('End-User aborted interaction').first().waitFor();
    await context.close();
  });

  it('goes to /?error=no_authorization_code when the callback has no code', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/auth/callback');
    await page.waitForURL(
      (url) => url.pathname === '/' && url.searchParams.get('error') === 'no_authorization_code',
    );
    await context.close();
  });

  it('shows the debug page with tokens as present only, and signs out from it', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    const idToken = await page.evaluate(() => localStorage.getItem('id_token'));
    await page.goto('/auth/debug');
    await page.getByRole('heading', { name: 'Authentication debug' }).waitFor();
    await page.getByText('Demo Admin (admin@demo.local)').waitFor();
    expect(await page.locator('body').innerText()).not.toContain(idToken!.slice(0, 20));
    await screenshot(page, 'auth-debug');
    await page.getByRole('button', { name: 'Trigger logout' }).click();
    await page.getByText('You have been successfully logged out.').first().waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    const after = await page.evaluate(() => ({
      isAuthenticated: localStorage.getItem('isAuthenticated'),
      idToken: localStorage.getItem('id_token'),
      oidcUsers: Object.keys(localStorage).filter((k) => k.startsWith('oidc.user:')).length,
      loggedOut: sessionStorage.getItem('loggedOut'),
    }));
    expect(after).toEqual({ isAuthenticated: null, idToken: null, oidcUsers: 0, loggedOut: 'true' });
    await page.goto('/demand-planning');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('calls the API with the ID token; without one the API answers 401', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'circor');
    const result = await page.evaluate(async () => {
      const token = localStorage.getItem('id_token');
      const call = async (headers: Record<string, string>) =>
        (
          await fetch('/api/demand-planning/real-data?limit=5&clientContext=admin', { headers })
        ).json() as Promise<{
          success: boolean;
          error: string | null;
          data: { items: { PID: string }[] } | null;
        }>;
      return { signed: await call({ Authorization: `Bearer ${token}` }), anonymous: await call({}) };
    });
    expect(result.signed.success).toBe(true);
    expect(result.signed.data!.items.every((r) => r.PID.startsWith('CIR-'))).toBe(true);
    expect(result.anonymous).toMatchObject({ success: false, error: 'Authentication required' });
    await context.close();
  });
});
