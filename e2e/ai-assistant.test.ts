import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { restoreDefaultSettings } from './support/settings';

/** The chat drawer and the help bubble on the demand planning page, offline analyst. */
describe('AI assistant', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const drawer = () => page.getByRole('complementary', { name: 'AI Assistant' });
  const messages = () => drawer().getByTestId('ai-message');
  const input = () => drawer().getByRole('textbox', { name: 'Your question' });
  const lastAnswer = () => messages().last();

  /** Waits for the reply to the message just sent: Thinking... shows, then goes. */
  async function waitForReply(count: number): Promise<void> {
    await expect.poll(() => messages().count(), { timeout: 15_000 }).toBe(count);
    // The answer streams in: it is complete when the input is enabled again.
    await expect.poll(() => input().isEnabled(), { timeout: 15_000 }).toBe(true);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, baseUrl));
    await signIn(page, 'admin');
    await page.goto('/demand-planning');
    await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('opens a 20rem drawer that shifts the page, greeting with the scenario and four prompts', async () => {
    const before = (await page.locator('#main-content').boundingBox())!;
    await page.getByRole('button', { name: 'Open AI assistant' }).click();
    await drawer().waitFor();
    const after = (await page.locator('#main-content').boundingBox())!;
    expect(before.width - after.width).toBe(320);
    expect((await drawer().boundingBox())!.width).toBe(320);
    await expect.poll(() => messages().count()).toBe(1);
    expect(await messages().first().innerText()).toContain('Demand Upside (End User)');
    for (const prompt of [
      'How accurate is our forecast?',
      'Where is the plan above or below the forecast?',
      'What are the best practices for overrides?',
      'How should I interpret the actuals?',
    ])
      await drawer().getByRole('button', { name: prompt }).waitFor();
  });

  it('answers each suggested prompt with formatted figures, never raw markup', async () => {
    await drawer().getByRole('button', { name: 'Where is the plan above or below the forecast?' }).click();
    await waitForReply(3);
    // Prompts show only while at most one message exists.
    expect(await drawer().getByRole('button', { name: 'How accurate is our forecast?' }).count()).toBe(0);
    const answer = lastAnswer();
    await answer.locator('table').first().waitFor();
    expect(await answer.innerText()).toMatch(/[\d,]+ against [\d,]+ units, [+−]?[\d,]+ units/);
    expect(await answer.innerText()).not.toContain('**');
    expect(await answer.locator('strong').count()).toBeGreaterThan(0);
    // The other three, through the input, checked for their data line.
    let count = 3;
    for (const prompt of [
      'How accurate is our forecast?',
      'What are the best practices for overrides?',
      'How should I interpret the actuals?',
    ]) {
      await input().fill(prompt);
      await input().press('Enter');
      count += 2;
      await waitForReply(count);
      expect(await lastAnswer().innerText()).toContain('Data used:');
    }
  });

  it('sends on Enter, adds a line on Shift+Enter, ignores blank messages, and resets to the greeting', async () => {
    const count = await messages().count();
    await input().fill('   ');
    await input().press('Enter');
    expect(await messages().count()).toBe(count);
    await input().fill('Total plan');
    await input().press('Shift+Enter');
    await input().pressSequentially('for Q4');
    expect(await input().inputValue()).toBe('Total plan\nfor Q4');
    expect(await messages().count()).toBe(count);
    await input().press('Enter');
    await waitForReply(count + 2);
    expect(await lastAnswer().innerText()).toMatch(/Final plan for all data you can see in \d{4}-Q4/);
    await drawer().getByRole('button', { name: 'Reset conversation' }).click();
    await expect.poll(() => messages().count()).toBe(1);
    await drawer().getByRole('button', { name: 'How accurate is our forecast?' }).waitFor();
  });

  it("runs the greeting's scenario and asks before saving it", async () => {
    await drawer().getByRole('button', { name: 'Run this scenario' }).click();
    await waitForReply(3);
    const answer = lastAnswer();
    expect(await answer.innerText()).toContain('Scenario Demand Upside (End User)');
    expect(await answer.locator('tbody tr').count()).toBe(4);
    await screenshot(page, 'ai-assistant-drawer-light');
    await answer.getByRole('button', { name: 'Save as overrides' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain('Save scenario Demand Upside (End User)?');
    // Other browser tests share this server's data: look at the question, do not save.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("understands misspelt questions with relative periods: the planning grid's figures and what it read", async () => {
    // Relative periods count from today, the server's and this test's clock alike.
    const today = new Date();
    const year = today.getUTCFullYear();
    const month = today.getUTCMonth() + 1;
    const next = year * 4 + Math.floor((month - 1) / 3) + 1;
    const nextQuarter = `${Math.floor(next / 4)}-Q${(next % 4) + 1}`;
    const thisQuarter = `${year}-Q${Math.floor((month - 1) / 3) + 1}`;
    const last = year * 12 + month - 2;
    const lastMonth = `${Math.floor(last / 12)}-${String((last % 12) + 1).padStart(2, '0')}`;
    const lastMonthName = new Date(Date.UTC(Math.floor(last / 12), last % 12, 1)).toLocaleString('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    /** A business unit's sums for one period, from the planning grid's roll-up (not the assistant). */
    const gridRow = async (bu: string, drillDown: 'monthly' | 'quarterly', period: string) => {
      const rows = await page.evaluate(
        async ({ bu, drillDown }) => {
          const query = new URLSearchParams({ viewLevel: 'business_unit', drillDown, bu, limit: '500' });
          const response = await fetch(`/api/demand-planning/grid?${query}`, {
            headers: { Authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}` },
          });
          return ((await response.json()) as { data: { rows: Array<Record<string, unknown>> } }).data.rows;
        },
        { bu, drillDown },
      );
      const row = rows.find((r) => r.periodKey === period && r.BU === bu)!;
      return {
        final: Number(row.Final_Pln_Units),
        stat: Number(row.Ensemble_Fcst_Units),
        actual: Number(row.Act_Bkg_Units),
      };
    };
    const units = (value: number) =>
      new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(value);
    const ask = async (question: string) => {
      const count = await messages().count();
      await input().fill(question);
      await input().press('Enter');
      await waitForReply(count + 2);
      return lastAnswer().innerText();
    };
    if ((await drawer().count()) === 0) await page.getByRole('button', { name: 'Open AI assistant' }).click();
    await drawer().waitFor();

    const gap = await ask('varience fcst vs plan for instrumentaton next quarter');
    const instrumentation = await gridRow('Instrumentation', 'quarterly', nextQuarter);
    expect(gap).toContain(`${units(instrumentation.final)} against ${units(instrumentation.stat)} units`);
    expect(gap).toContain(
      `Understood: comparison · final plan vs statistical forecast · business unit Instrumentation · ${nextQuarter}`,
    );
    expect(gap).toContain('“instrumentaton” read as Instrumentation');

    const actuals = await ask('acutals last month for Pumps and Flwo');
    const pumps = await gridRow('Pumps & Flow', 'monthly', lastMonth);
    expect(actuals).toContain(`${units(pumps.actual)} units`);
    expect(actuals).toContain(`business unit Pumps & Flow · ${lastMonthName}`);
    expect(actuals).toContain('“pumps and flwo” read as Pumps & Flow');

    const totals = await ask('totl plan this quater for Industral Valves');
    const valves = await gridRow('Industrial Valves', 'quarterly', thisQuarter);
    expect(totals).toContain(`${units(valves.final)} units`);
    expect(totals).toContain(`business unit Industrial Valves · ${thisQuarter}`);
    await screenshot(page, 'ai-assistant-understood');
  });

  it('shows the error toast and the apology when the service fails', async () => {
    await page.route('**/api/ai/chat**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    const count = await messages().count();
    await input().fill('Total plan?');
    await input().press('Enter');
    await waitForReply(count + 2);
    expect(await lastAnswer().innerText()).toContain(
      "I'm sorry, I'm having trouble connecting to the AI service right now.",
    );
    const toast = await page.waitForSelector(
      '[data-testid="toast"]:has-text("Failed to get AI response. Please try again.")',
    );
    expect(await toast.innerText()).toContain('Error');
    await page.unroute('**/api/ai/chat**');
    await drawer().getByRole('button', { name: 'Close', exact: true }).click();
    await drawer().waitFor({ state: 'detached' });
  });

  it('opens the help bubble in three contexts, with its pulsing dot, error and Try Again', async () => {
    for (const [title, expected] of [
      ['Planning Workflow', /units, \$[\d,]+ final revenue/],
      ['Performance Metrics', /Final plan accuracy at lag 1: [\d.]+% \(WAPE [\d.]+%\)/],
      ['Category Management', /You are looking at all your data: [\d,]+ demand records/],
    ] as const) {
      const trigger = page.getByRole('button', { name: `AI insights: ${title}` });
      expect(await trigger.getByTestId('ai-help-new').count()).toBe(1);
      await trigger.click();
      const popover = page.getByRole('dialog').filter({ hasText: title });
      await expect.poll(async () => popover.innerText(), { timeout: 10_000 }).toMatch(expected);
      expect(await popover.innerText()).toMatch(/Recommendations/i);
      if (title === 'Planning Workflow') await screenshot(page, 'ai-help-bubble-light');
      await page.keyboard.press('Escape');
      expect(await trigger.getByTestId('ai-help-new').count()).toBe(0);
    }
    await page.route('**/api/ai-help**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    const trigger = page.getByRole('button', { name: 'AI insights: Data Aggregation' });
    await trigger.click();
    const popover = page.getByRole('dialog').filter({ hasText: 'Data Aggregation' });
    await popover
      .getByText('Unable to load AI insights. You can still access basic help information.')
      .waitFor({ timeout: 15_000 });
    await page.unroute('**/api/ai-help**');
    await popover.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(async () => popover.innerText(), { timeout: 10_000 }).toMatch(/Recommendations/i);
    await page.keyboard.press('Escape');
  });

  it('places the help bubble on the view level, the drill down, the import dialog and its validation', async () => {
    /** Opens a bubble, waits for its insight and closes it again. */
    const insight = async (title: string, expected: RegExp, shot?: string) => {
      await page.getByRole('button', { name: `AI insights: ${title}` }).click();
      const popover = page.getByRole('dialog').filter({ hasText: title }).last();
      await expect.poll(async () => popover.innerText(), { timeout: 10_000 }).toMatch(expected);
      expect(await popover.innerText()).toMatch(/Recommendations/i);
      if (shot) await screenshot(page, shot);
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'detached' });
    };
    await insight(
      'Business Unit Planning',
      /final plan [\d,]+ units against a statistical forecast of [\d,]+ \([+−]?[\d.]+%\); revenue \$[\d,]+/,
    );
    await insight('Time-Drill Down', /Drill down .+ at .+ Level: the rows group the weeks of [\d,]+ records/);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Demand Planning Data' });
    await dialog.waitFor();
    await insight('Excel Import', /Imports add to the [\d,]+ records of all your data/);
    const file = join(mkdtempSync(join(tmpdir(), 'ai-help-')), 'one-row.csv');
    writeFileSync(file, 'sku,category,businessUnit\nAI-HELP-1,Ball Valves,Industrial Valves\n');
    await page.getByTestId('import-file-input').setInputFiles(file);
    await dialog.getByTestId('import-summary').waitFor();
    await insight(
      'Data Validation',
      /[\d,]+ records in all your data; \d+ unsaved edits/,
      'ai-help-import-validation',
    );
    // Other browser tests share this server's data: the file is previewed, never imported.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("answers in the user's language and formats, the drawer and the help bubble alike", async () => {
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem(
        'userSettings',
        JSON.stringify({ ...stored, language: 'spanish', dateFormat: 'dd/mm/yyyy', numberFormat: 'indian' }),
      );
    });
    try {
      await page.reload();
      await page.getByRole('button', { name: 'Abrir el asistente de IA' }).click();
      const spanish = page.getByRole('complementary', { name: 'Asistente de IA' });
      await spanish
        .getByRole('button', { name: '¿Dónde está el plan por encima o por debajo del pronóstico?' })
        .click();
      const answers = spanish.getByTestId('ai-message');
      await expect.poll(() => answers.count(), { timeout: 15_000 }).toBe(3);
      await expect
        .poll(() => spanish.getByRole('textbox', { name: 'Su pregunta' }).isEnabled(), { timeout: 15_000 })
        .toBe(true);
      const text = await answers.last().innerText();
      expect(text).toMatch(/[\d,]+ frente a [\d,]+ unidades, \*{0,2}[+−]?[\d,]+ unidades/);
      expect(text).toMatch(/Datos usados: [\d,]+ registros de demanda/);
      await screenshot(page, 'ai-assistant-drawer-spanish');
      await spanish.getByRole('button', { name: 'Cerrar', exact: true }).click();
      await page.getByRole('button', { name: 'Información de IA: Flujo de planificación' }).click();
      await expect
        .poll(async () => page.getByRole('dialog').last().innerText(), { timeout: 10_000 })
        .toMatch(/Plan de todos sus datos: [\d,]+ unidades/);
      await page.keyboard.press('Escape');
    } finally {
      await restoreDefaultSettings(page);
      await page.reload();
      await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();
    }
  });

  it('looks right in the dark theme', async () => {
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: 'dark' }));
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Financial Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Open AI assistant' }).click();
    await drawer().getByRole('button', { name: 'Where is the plan above or below the forecast?' }).click();
    await waitForReply(3);
    await screenshot(page, 'ai-assistant-drawer-dark');
    await page.getByRole('button', { name: 'AI insights: Planning Workflow' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Planning Workflow' })
      .getByText('Recommendations', { exact: false })
      .waitFor();
    await screenshot(page, 'ai-help-bubble-dark');
    await page.keyboard.press('Escape');
    await restoreDefaultSettings(page);
  });
});
