import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

type Language = 'en' | 'es' | 'fr' | 'de';

/** What each language shows, written out by hand, not read from the catalogues. */
const SHOWN: Record<
  Language,
  {
    settings: string;
    save: string;
    cancel: string;
    /** The language dropdown's option names, in this language. */
    languageOption: Record<Language, string>;
    savedToast: string;
    pageTitle: string;
    gridTitle: string;
    editMode: string;
    /** The first grid header of the default Business Unit view. */
    businessUnitHeader: string;
    dialogTitle: string;
    controlTower: string;
    demandPlanning: string;
    reviewTitle: string;
  }
> = {
  en: {
    settings: 'Settings',
    save: 'Save Settings',
    cancel: 'Cancel',
    languageOption: { en: 'English', es: 'Spanish', fr: 'French', de: 'German' },
    savedToast: 'Settings Saved',
    pageTitle: 'Demand Planning & Forecasting',
    gridTitle: 'Demand Plan',
    editMode: 'Edit Mode',
    businessUnitHeader: 'Business Unit',
    dialogTitle: 'Settings & Preferences',
    controlTower: 'Control tower',
    demandPlanning: 'Demand planning',
    reviewTitle: 'Demand Planning Review Worksheet',
  },
  es: {
    settings: 'Configuración',
    save: 'Guardar configuración',
    cancel: 'Cancelar',
    languageOption: { en: 'Inglés', es: 'Español', fr: 'Francés', de: 'Alemán' },
    savedToast: 'Configuración guardada',
    pageTitle: 'Planificación y previsión de la demanda',
    gridTitle: 'Plan de demanda',
    editMode: 'Modo de edición',
    businessUnitHeader: 'Unidad de negocio',
    dialogTitle: 'Configuración y preferencias',
    controlTower: 'Torre de control',
    demandPlanning: 'Planificación de la demanda',
    reviewTitle: 'Hoja de revisión de la planificación de la demanda',
  },
  fr: {
    settings: 'Paramètres',
    save: 'Enregistrer les paramètres',
    cancel: 'Annuler',
    languageOption: { en: 'Anglais', es: 'Espagnol', fr: 'Français', de: 'Allemand' },
    savedToast: 'Paramètres enregistrés',
    pageTitle: 'Planification et prévision de la demande',
    gridTitle: 'Plan de la demande',
    editMode: 'Mode édition',
    businessUnitHeader: 'Unité opérationnelle',
    dialogTitle: 'Paramètres et préférences',
    controlTower: 'Tour de contrôle',
    demandPlanning: 'Planification de la demande',
    reviewTitle: 'Feuille de revue de la planification de la demande',
  },
  de: {
    settings: 'Einstellungen',
    save: 'Einstellungen speichern',
    cancel: 'Abbrechen',
    languageOption: { en: 'Englisch', es: 'Spanisch', fr: 'Französisch', de: 'Deutsch' },
    savedToast: 'Einstellungen gespeichert',
    pageTitle: 'Bedarfsplanung und Prognose',
    gridTitle: 'Bedarfsplan',
    editMode: 'Bearbeitungsmodus',
    businessUnitHeader: 'Geschäftsbereich',
    dialogTitle: 'Einstellungen',
    controlTower: 'Control Tower',
    demandPlanning: 'Bedarfsplanung',
    reviewTitle: 'Arbeitsblatt Bedarfsplanungs-Review',
  },
};

const sidebar = (page: Page) => page.getByTestId('sidebar');
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

async function openSettings(page: Page, shown: (typeof SHOWN)[Language]) {
  await sidebar(page).getByRole('button', { name: shown.settings, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

/** Chooses a language in Settings and saves, from a screen shown in `from`. */
async function switchLanguage(page: Page, from: Language, to: Language): Promise<void> {
  const dialog = await openSettings(page, SHOWN[from]);
  await dialog.locator('#setting-language').click();
  await page.getByRole('option', { name: SHOWN[from].languageOption[to], exact: true }).click();
  await dialog.getByRole('button', { name: SHOWN[from].save, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('interface language', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await signIn(page, 'admin');
    await page.locator('[data-testid="demand-grid"] .ag-row').first().waitFor();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('follows the browser language while nothing is saved, English here', async () => {
    await expect(htmlLang(page)).resolves.toBe('en');
    await page.getByRole('heading', { level: 1, name: SHOWN.en.pageTitle }).waitFor();
  });

  const order: [Language, Language][] = [
    ['en', 'es'],
    ['es', 'fr'],
    ['fr', 'de'],
  ];
  it.each(order)('switches from %s to %s at once, without a reload', async (from, to) => {
    const shown = SHOWN[to];
    // A reload would drop this marker.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    await switchLanguage(page, from, to);

    const toast = await page.waitForSelector(`[data-testid="toast"]:has-text("${shown.savedToast}")`);
    expect(await toast.innerText()).toContain(shown.savedToast);
    await expect(htmlLang(page)).resolves.toBe(to);

    // Demand planning page: title, grid title, toolbar, a grid header.
    await page.getByRole('heading', { level: 1, name: shown.pageTitle }).waitFor();
    await page.getByRole('heading', { level: 2, name: shown.gridTitle, exact: true }).waitFor();
    await page.getByRole('button', { name: shown.editMode, exact: true }).waitFor();
    const headers = page.locator('[data-testid="demand-grid"] .ag-header-cell-text');
    await expect.poll(() => headers.allInnerTexts()).toContain(shown.businessUnitHeader);
    if (to === 'de' || to === 'es') await screenshot(page, `i18n-${to}-demand-planning`);

    // A dialog: the settings dialog opens in the new language.
    const dialog = await openSettings(page, shown);
    await dialog.getByRole('heading', { name: shown.dialogTitle, exact: true }).waitFor();
    if (to === 'de') await screenshot(page, 'i18n-de-settings-dialog');
    await dialog.getByRole('button', { name: shown.cancel, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // A control tower screen, reached through the sidebar.
    // The group's row opens the group; its review worksheet is a child link.
    const review = sidebar(page).locator('a[href="/demand-planning-review"]');
    if (!(await review.isVisible()))
      await sidebar(page).getByText(shown.controlTower, { exact: true }).click();
    await review.click();
    await page.getByRole('heading', { level: 1, name: shown.reviewTitle }).waitFor();
    if (to === 'de') await screenshot(page, 'i18n-de-control-tower');
    await sidebar(page).getByRole('link', { name: shown.demandPlanning, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: shown.pageTitle }).waitFor();

    await expect(page.evaluate(() => 'notReloaded' in window)).resolves.toBe(true);
  });

  it('keeps the saved language over a reload and switches back to the exact English', async () => {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: SHOWN.de.pageTitle }).waitFor();
    await expect(htmlLang(page)).resolves.toBe('de');

    await switchLanguage(page, 'de', 'en');
    await page.getByRole('heading', { level: 1, name: SHOWN.en.pageTitle }).waitFor();
    await page.getByRole('button', { name: SHOWN.en.editMode, exact: true }).waitFor();
    await expect(htmlLang(page)).resolves.toBe('en');
  });
});

describe("public pages and sign-in in the browser's language", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    // A German browser: navigator.languages and Accept-Language say de-DE, nothing is saved.
    ({ page } = await newPage(browser, inject('baseUrl'), { locale: 'de-DE' }));
  });
  afterAll(async () => browser?.close());

  it('shows the landing page in German', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Transformieren Sie Ihre Supply Chain' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Alles, was Planer brauchen, an einem Ort' }).waitFor();
    await page.getByRole('heading', { level: 3, name: 'Bedarfsprognose' }).waitFor();
    await page.getByRole('button', { name: 'Jetzt starten' }).waitFor();
    await expect(htmlLang(page)).resolves.toBe('de');
    await screenshot(page, 'i18n-de-landing');
  });

  it("opens the provider's sign-in page in German and signs in from it", async () => {
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
    await expect(htmlLang(page)).resolves.toBe('de');
    await page.getByText('Demo-Identitätsanbieter').waitFor();
    await screenshot(page, 'i18n-de-sign-in');
    // Settings follow the user from the server, and the admin saved English above: a user who has
    // saved none (circor, in this suite) shows what the browser's language alone decides.
    await page.getByLabel('E-Mail').fill('circor@demo.local');
    await page.getByLabel('Passwort').fill('circor-demo');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/circor', { timeout: 30_000 });
    await sidebar(page).getByText(SHOWN.de.controlTower, { exact: true }).waitFor();
    await expect(htmlLang(page)).resolves.toBe('de');
  });

  it('shows the language in effect, German, in Settings while nothing is saved', async () => {
    const dialog = await openSettings(page, SHOWN.de);
    await expect(dialog.locator('#setting-language').innerText()).resolves.toBe(SHOWN.de.languageOption.de);
    await dialog.getByRole('button', { name: SHOWN.de.cancel, exact: true }).click();
  });
});
