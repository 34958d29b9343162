import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { restoreDefaultSettings } from './support/settings';

type Envelope<T> = { success: boolean; data: T };
type Rates = { asOf: string; rates: { currency: string; validFrom: string; rate: number }[] };

/** A call to the API with the page's own sign-in token, as the app makes it. */
async function api<T>(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return page.evaluate(
    async ({ path, init }) => {
      const token = localStorage.getItem('id_token');
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return ((await response.json()) as Envelope<T>).data;
    },
    { path, init },
  );
}

const currentPublish = (page: Page) => page.getByTestId('metric-Current Publish Value');

async function chooseInSettings(page: Page, field: string, option: string): Promise<void> {
  await page.getByTestId('sidebar').getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator(field).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await dialog.getByRole('button', { name: 'Save Settings', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('settings that follow the user, money in the chosen currency', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let first: { context: BrowserContext; page: Page };
  let second: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    browser = await launchBrowser();
    first = await newPage(browser, baseUrl);
    second = await newPage(browser, baseUrl);
    await signIn(first.page, 'admin');
    await currentPublish(first.page).waitFor();
  });
  afterAll(async () => {
    // Other browser tests share this server and read dollars: leave the admin's settings as found.
    if (first?.page) await restoreDefaultSettings(first.page).catch(() => undefined);
    await browser?.close();
  });

  it('shows the Current Publish Value in EUR as the dollar value times the rate valid today, and says so', async () => {
    const { page } = first;
    await expect.poll(() => currentPublish(page).innerText()).toMatch(/^\$/);
    const metrics = await api<{ currentPublishValue: number }>(page, '/api/dashboard-metrics');
    const table = await api<Rates>(page, '/api/exchange-rates');
    const eur = table.rates
      .filter((r) => r.currency === 'eur' && r.validFrom <= table.asOf)
      .sort((a, b) => b.validFrom.localeCompare(a.validFrom))[0]!;

    await chooseInSettings(page, '#setting-currency', 'EUR (€)');

    // Spec §9: the dashboard shows value × 10 in whole units; converted after that sum, not relabelled.
    const expected = Math.round(metrics.currentPublishValue * 10 * eur.rate);
    const shown = await currentPublish(page).innerText();
    expect(shown.startsWith('€')).toBe(true);
    expect(Number(shown.replace(/[€,]/g, ''))).toBe(expected);
    expect(Number(shown.replace(/[€,]/g, ''))).not.toBe(Math.round(metrics.currentPublishValue * 10));
    const [year, month, day] = eur.validFrom.split('-');
    await page
      .getByRole('note')
      .filter({ hasText: `Amounts in EUR, converted from USD at ${eur.rate.toFixed(4)} EUR per USD` })
      .filter({ hasText: `rate valid from ${month}/${day}/${year}` })
      .first()
      .waitFor();
    await screenshot(page, 'settings-eur-dashboard');
  });

  it('shows the planning page in Spanish with rupees, converted and grouped the Indian way', async () => {
    const { page } = first;
    const table = await api<Rates>(page, '/api/exchange-rates');
    const metrics = await api<{ currentPublishValue: number }>(page, '/api/dashboard-metrics');
    const inr = table.rates
      .filter((r) => r.currency === 'inr' && r.validFrom <= table.asOf)
      .sort((a, b) => b.validFrom.localeCompare(a.validFrom))[0]!;
    await chooseInSettings(page, '#setting-language', 'Spanish');
    const dialog = async (field: string, option: string) => {
      await page.getByTestId('sidebar').getByRole('button', { name: 'Configuración', exact: true }).click();
      const settings = page.getByRole('dialog');
      await settings.locator(field).click();
      await page.getByRole('option', { name: option, exact: true }).click();
      await settings.getByRole('button', { name: 'Guardar configuración', exact: true }).click();
      await settings.waitFor({ state: 'detached' });
    };
    await dialog('#setting-currency', 'INR (₹)');
    await dialog('#setting-number-format', 'India (12,34,567.89)');
    const shown = await currentPublish(page).innerText();
    const expected = Math.round(metrics.currentPublishValue * 10 * inr.rate);
    expect(shown.startsWith('₹')).toBe(true);
    expect(Number(shown.replace(/[₹,]/g, ''))).toBe(expected);
    // Lakh and crore grouping: the last three digits, then pairs.
    expect(shown).toMatch(/^₹(\d{1,2},)*\d{1,2},\d{3}$|^₹\d{1,3}$/);
    await page.getByRole('note').filter({ hasText: 'Importes en INR' }).first().waitFor();
    await screenshot(page, 'settings-es-inr-demand-planning');
    await dialog('#setting-language', 'Inglés');
    await chooseInSettings(page, '#setting-number-format', 'US (1,234,567.89)');
    await chooseInSettings(page, '#setting-currency', 'EUR (€)');
  });

  it('shows the settings saved in one browser in another after signing in there', async () => {
    await chooseInSettings(first.page, '#setting-number-format', 'Indian (12,34,567.89)');
    await signIn(second.page, 'admin');
    // The second browser never saw these settings locally: they came from the server.
    await expect
      .poll(() => currentPublish(second.page).innerText(), { timeout: 15_000 })
      .toMatch(/^€\d{1,2}(,\d\d)*,\d{3}$/);
    const stored = await second.page.evaluate(
      () => JSON.parse(localStorage.getItem('userSettings') ?? '{}') as object,
    );
    expect(stored).toMatchObject({ currency: 'eur', numberFormat: 'indian' });
    await chooseInSettings(first.page, '#setting-number-format', 'US (1,234,567.89)');
  });
});
