import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';

async function choose(page: Page, trigger: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: trigger }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Waits until the run shown has a result and answers its total cost text. */
async function waitForResult(page: Page, previousCost: string | null): Promise<string> {
  await page.waitForFunction(
    (old) => {
      const text = document.querySelector('[data-testid="kpi-total-cost"]')?.textContent ?? '';
      return /\$[\d,]+/.test(text) && text !== old;
    },
    previousCost,
    { timeout: 60_000 },
  );
  return page.getByTestId('kpi-total-cost').innerText();
}

describe('network optimisation (/optichain)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('solves the baseline, shows cost and flows, closes a DC in a scenario and compares it', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/optichain');
    await page.getByRole('heading', { name: 'Supply Chain Network Optimization' }).waitFor();

    await page.getByTestId('solve-button').click();
    const baselineCost = await waitForResult(page, null);
    expect(baselineCost).toMatch(/^\$[\d,]+$/);
    expect(await page.getByTestId('kpi-service').innerText()).toMatch(/%$/);
    const flowRows = page.getByTestId('flows-table').locator('tbody tr');
    expect(await flowRows.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('cost-breakdown').innerText()).toContain('DC fixed cost');

    // The flows table filters and exports what it shows.
    await choose(page, 'Leg', 'DC → customer');
    const outbound = await flowRows.allInnerTexts();
    expect(outbound.every((row) => row.startsWith('DC → customer'))).toBe(true);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^optichain-flows-run-\d+\.xlsx$/);
    const saved = await file.path();
    expect(readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
    await choose(page, 'Leg', 'All legs');
    await screenshot(page, 'optichain-baseline');

    // Close the open DC that ships the most.
    const openDc = await page
      .getByTestId('network-diagram')
      .locator('g[data-open="true"]')
      .first()
      .getAttribute('data-node');
    expect(openDc).toBeTruthy();
    await page.getByRole('tab', { name: 'Scenarios & comparison' }).click();
    await page.getByTestId('scenario-name').fill(`Close ${openDc}`);
    await choose(page, 'Distribution centre', openDc!);
    await page.getByTestId('add-change').click();
    await page.getByText(`Close ${openDc!}`, { exact: true }).first().waitFor();
    await page.getByTestId('save-scenario').click();
    await page.waitForSelector('[data-testid="toast"]:has-text("Scenario saved")');

    await choose(page, 'Scenario', `Close ${openDc}`);
    await page.getByTestId('solve-button').click();
    await waitForResult(page, baselineCost);
    const closed = page.getByTestId('network-diagram').locator(`g[data-node="${openDc}"]`);
    expect(await closed.getAttribute('data-open')).toBe('false');

    await page.getByRole('tab', { name: 'Scenarios & comparison' }).click();
    const comparison = page.getByTestId('comparison');
    await comparison.waitFor();
    const total = await page.getByTestId('compare-total').innerText();
    expect(total).toMatch(/^Total cost\s+\$[\d,]+\s+\$[\d,]+\s+-?\$[\d,]+$/);
    expect(await page.getByTestId('compare-dcs').innerText()).toContain(`${openDc}: closed`);
    expect(await page.getByTestId('compare-flows').locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'optichain-comparison');

    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('userSettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('userSettings', JSON.stringify({ ...stored, theme: 'dark' }));
    });
    await page.reload();
    await page.getByTestId('comparison').waitFor();
    await screenshot(page, 'optichain-comparison-dark');
    await page.getByRole('tab', { name: 'Results' }).click();
    await page.getByTestId('run-result').waitFor();
    await screenshot(page, 'optichain-scenario-dark');
    await page.getByRole('tab', { name: 'Network data' }).click();
    await page.getByTestId('network-editor').waitFor();
    await screenshot(page, 'optichain-network-dark');
    await context.close();
  });

  it('adds a DC and a lane on the network page, then deletes the DC with its lane after confirming', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, 'admin');
    await page.goto('/optichain');
    await page.getByRole('tab', { name: 'Network data' }).click();
    const editor = page.getByTestId('network-editor');
    await editor.waitFor();
    // A name of its own, so a run in parallel or a retry never meets another test's DC.
    const name = `E2E DC ${Date.now()}`;
    const addDc = page.getByTestId('add-dc');
    await addDc.getByLabel('Name').fill(name);
    await addDc.getByLabel('Throughput (units/month)').fill('500');
    await addDc.getByLabel('Fixed cost ($/month)').fill('250');
    await addDc.getByLabel('Handling ($/unit)').fill('1.5');
    await addDc.getByRole('button', { name: 'Add' }).click();
    const dcRow = editor.locator('tr', { hasText: name }).first();
    await dcRow.waitFor();

    const addLane = page.getByTestId('add-lane');
    await addLane.getByRole('combobox', { name: 'From' }).click();
    await page.getByRole('option', { name, exact: true }).click();
    await addLane.getByRole('combobox', { name: 'To' }).click();
    await page.getByRole('option').first().click();
    await addLane.getByLabel('Cost ($/unit)').fill('2');
    await addLane.getByLabel('Lead time (days)').fill('4');
    await addLane.getByRole('button', { name: 'Add' }).click();
    await editor
      .locator('tr', { hasText: `${name}` })
      .nth(1)
      .waitFor();
    await screenshot(page, 'optichain-network-added');

    await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.innerText()).toContain(
      '1 lane uses it and will be deleted with it. The change is audited.',
    );
    await screenshot(page, 'optichain-network-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForFunction(
      (dc) => !document.querySelector('[data-testid="network-editor"]')?.textContent?.includes(dc),
      name,
    );
    await context.close();
  });
});
