import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from './support/auth';
import { launchBrowser, newPage } from './support/browser';

/** Everything the browser reports about a page breaking the CSP, or a failed token revocation. */
type Problems = { violations: string[]; console: string[] };

/**
 * Records `securitypolicyviolation` events on every document of the context (init scripts run on
 * provider pages too and are not subject to the page's CSP) and console messages about CSP or
 * revocation.
 */
async function watchForProblems(context: BrowserContext, page: Page): Promise<Problems> {
  const problems: Problems = { violations: [], console: [] };
  await context.exposeBinding('reportCspViolation', (_source, text: string) => {
    problems.violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.documentURI}: ${event.effectiveDirective} blocked ${event.blockedURI} ${event.sample}`);
    });
  });
  page.on('console', (message) => {
    if (/content security policy|refused to|revocation|invalid response content-type/i.test(message.text())) {
      problems.console.push(`${message.type()}: ${message.text()}`);
    }
  });
  return problems;
}

describe('content security policy in the browser', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('sends the strict CSP on the app page and its assets, and keeps the other helmet headers', async () => {
    const response = await fetch(`${baseUrl}/demand-planning`);
    const csp = response.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp.split(';')).toContain(directive);
    }
    expect(csp).not.toContain('unsafe');
    // Inline <style> elements only with this answer's nonce, which the page hands to AG Grid and Radix.
    const nonce = /style-src 'self' 'sha256-[^']+' 'nonce-([^']+)'/.exec(csp)![1];
    const html = await response.text();
    expect(html).toContain(`<meta name="csp-nonce" content="${nonce}"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html).not.toMatch(/<script>|<style>| style="/);
  });

  it('signs in through the provider, works in the grid, signs out: no violation, no revocation error', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const problems = await watchForProblems(context, page);

    await page.goto('/');
    await page.getByRole('button', { name: 'Login' }).first().click();
    await page.locator('#email').waitFor();
    await page.locator('#email').fill(DEMO_USERS.admin.email);
    await page.locator('#password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Invalid email or password.').waitFor();
    await page.locator('#password').fill(DEMO_USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === DEMO_USERS.admin.home, { timeout: 30_000 });

    // The planning grid (AG Grid), its menus and a dialog: the parts that style elements at run time.
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor({ timeout: 30_000 });
    await page.getByRole('combobox', { name: 'View Level' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('user-menu-trigger').click();
    await page.getByRole('menuitem', { name: /Settings/ }).click();
    await page.getByRole('dialog', { name: 'Settings & Preferences' }).waitFor();
    await page.keyboard.press('Escape');
    await page.goto('/optichain');
    await page.waitForLoadState('networkidle');

    await page.getByTestId('user-menu-trigger').click();
    await page.getByRole('menuitem', { name: /Sign Out/ }).click();
    await page.getByText('You have been successfully logged out.').first().waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForLoadState('networkidle');

    expect(problems).toEqual({ violations: [], console: [] });
    await context.close();
  });

  it("shows the provider's own sign-out pages without a violation", async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const problems = await watchForProblems(context, page);
    await page.goto('/api/auth/login');
    await page.locator('#email').fill(DEMO_USERS.circor.email);
    await page.locator('#password').fill(DEMO_USERS.circor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === DEMO_USERS.circor.home, { timeout: 30_000 });

    const confirm = await page.goto('/oidc/session/end?client_id=planning-suite');
    expect(confirm!.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();

    expect(problems).toEqual({ violations: [], console: [] });
    await context.close();
  });
});
