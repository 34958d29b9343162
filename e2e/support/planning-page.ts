import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signIn } from './auth';
import { launchBrowser, newPage } from './browser';

/** Opens a select by its label and picks an option, as a planner does. */
export async function chooseOption(page: Page, trigger: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: trigger }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The grid shows rows and no loading note. */
export async function waitForGridIdle(page: Page): Promise<void> {
  await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
  await page.getByText('Loading data...').waitFor({ state: 'detached' });
  await page.getByText('Loading Initial Data...').waitFor({ state: 'detached' });
}

export async function showView(page: Page, level: string, drillDown: string): Promise<void> {
  await chooseOption(page, 'View Level', level);
  await chooseOption(page, 'Drill Down', drillDown);
  await waitForGridIdle(page);
}

/** Calls the API with the signed-in user's token, as the page does. */
export async function pageApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, {
      headers: {
        Authorization: `Bearer ${localStorage.getItem('id_token') ?? localStorage.getItem('access_token')}`,
      },
    });
    return ((await response.json()) as { data: unknown }).data;
  }, path) as Promise<T>;
}

export type PlanningPage = { browser: Browser; context: BrowserContext; page: Page };

/** A browser with the admin signed in on the demand planning page (1440 × 1600), its grid loaded. */
export async function openPlanningPage(baseUrl: string): Promise<PlanningPage> {
  const browser = await launchBrowser();
  const { context, page } = await newPage(browser, baseUrl);
  await page.setViewportSize({ width: 1440, height: 1600 });
  await signIn(page, 'admin');
  await page.goto('/demand-planning');
  await waitForGridIdle(page);
  return { browser, context, page };
}
