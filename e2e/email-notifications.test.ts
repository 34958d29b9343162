import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/test/support/free-port';
import { signIn } from './support/auth';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { startServerProcess, type RunningServer } from './support/server-process';

/** A mail as it arrived, with quoted-printable soft line breaks joined. */
const readable = (raw: string): string => raw.replace(/=\r?\n/g, '');

/**
 * Email notifications end to end: a server of its own, configured with a real SMTP
 * server started here and digests due at once, so the mail of a forecast run arrives in seconds.
 */
describe('email notifications through a real SMTP server', () => {
  const mails: string[] = [];
  let smtp: SMTPServer;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push(readable(text));
          callback();
        });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
    server = await startServerProcess({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_DIGEST_MINUTES: '0',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  it('turns email notifications on in Settings, runs a forecast, and the digest arrives by mail', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, 'admin');
    await page.goto('/demand-planning');

    const openSettings = async () => {
      await page.getByTestId('sidebar').getByRole('button', { name: 'Settings', exact: true }).click();
      return page.getByRole('dialog');
    };
    const emailSwitch = page.getByRole('switch', { name: 'Email Notifications' });
    const saveSettings = async () => {
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Save Settings', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    };

    // Off first, so that turning it on is what the test does.
    await openSettings();
    if ((await emailSwitch.getAttribute('aria-checked')) === 'true') await emailSwitch.click();
    await saveSettings();
    const dialog = await openSettings();
    expect(await emailSwitch.getAttribute('aria-checked')).toBe('false');
    // With SMTP configured the hint does not say that notifications stay in the app.
    expect(await dialog.innerText()).not.toContain('in-app only');
    await emailSwitch.click();
    expect(await emailSwitch.getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'settings-email-notifications-on');
    await saveSettings();

    await page.getByRole('button', { name: 'Run Forecast' }).click();
    await page.getByTestId('forecast-confirm').getByRole('button', { name: 'Run Forecast' }).click();
    const toast = await page.waitForSelector('[data-testid="toast"]:has-text("Forecast Complete")', {
      timeout: 120_000,
    });
    const done = /Updated forecasts for (\d+) products/.exec(await toast.innerText());
    expect(done).not.toBeNull();

    // The outbox is read every few seconds by the server's digest mailer.
    const deadline = Date.now() + 60_000;
    while (!mails.some((mail) => /Forecast run \d+ finished/.test(mail)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 500));
    const mail = mails.find((m) => /Forecast run \d+ finished/.test(m));
    expect(mail, `mails received: ${mails.length}`).toBeDefined();
    expect(mail).toMatch(/^To: .*admin@demo\.local/im);
    expect(mail).toMatch(/^Subject: Planning Suite: \d+ notifications?/im);
    expect(mail).toContain(`Forecast run`);
    expect(mail).toContain(`${done![1]} products`);
    await context.close();
  });
});
