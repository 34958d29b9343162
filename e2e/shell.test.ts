import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from './support/browser';

/** Public screens of the application shell: landing page, 404, route error screen. */
describe('shell: public screens', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows every landing page element with the spec texts and links', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Transform Your Supply Chain' }).waitFor();
    for (const name of ['Login', 'Get Started', 'Start Your Journey']) {
      await expect(page.getByRole('button', { name }).isVisible()).resolves.toBe(true);
    }
    for (const title of [
      'Advanced Analytics',
      'Demand Forecasting',
      'Real-time Optimization',
      'Enterprise Security',
    ]) {
      await expect(page.getByRole('heading', { name: title }).isVisible()).resolves.toBe(true);
    }
    await expect(
      page.getByRole('heading', { name: 'Ready to Optimize Your Supply Chain?' }).isVisible(),
    ).resolves.toBe(true);
    const learnMore = page.getByRole('link', { name: /Learn More/ });
    await expect(learnMore.getAttribute('target')).resolves.toBe('_blank');
    await expect(learnMore.getAttribute('href')).resolves.toMatch(/^https:\/\//);
    const connect = page.getByRole('link', { name: /Let's Connect/ });
    await expect(connect.getAttribute('target')).resolves.toBe('_blank');
    expect(await connect.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await expect(page.getByText('© 2025').isVisible()).resolves.toBe(true);
    await screenshot(page, 'shell-landing');
    await context.close();
  });

  it.each(['Login', 'Get Started', 'Start Your Journey'])(
    '%s starts sign-in with /demand-planning as the post-login target',
    async (name) => {
      const { context, page } = await newPage(browser, baseUrl);
      await page.goto('/');
      await page.evaluate(() => sessionStorage.setItem('loggedOut', 'true'));
      await page.getByRole('button', { name }).click();
      await page.getByRole('textbox', { name: 'Email' }).waitFor();
      expect(new URL(page.url()).origin).toBe(baseUrl);
      const stored = await page.evaluate(() => [
        sessionStorage.getItem('auth_redirect'),
        sessionStorage.getItem('loggedOut'),
      ]);
      expect(stored).toEqual(['/demand-planning', null]);
      await context.close();
    },
  );

  it('shows 404 Page Not Found for any other path, with a way home', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/control-tower/no-such-screen');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.getByRole('heading', { name: 'Transform Your Supply Chain' }).waitFor();
    await context.close();
  });

  it('shows the generic error screen when a route fails to load, and Reload Page recovers', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    // The 404 page's bundle failing to download is a real-world route failure (e.g. mid-deploy).
    await page.route(/NotFoundPage-[^/]*\.js$/, (route) => route.abort());
    await page.goto('/missing-page');
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    await expect(
      page
        .getByText(
          'An unexpected error occurred while loading the data. This might be due to a temporary issue.',
        )
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Try Again' }).isVisible()).resolves.toBe(true);
    await page.unroute(/NotFoundPage-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Reload Page' }).click();
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await context.close();
  });
});
