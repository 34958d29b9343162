import { DEFAULT_USER_SETTINGS, type UserSettings } from '@ps/domain';
import type { Page } from 'playwright-core';

/**
 * Settings follow the user on the server, and every browser test signs in as the same demo users
 * on one shared server: a test that changes settings puts the defaults back when it is done, in
 * the server's copy and the page's cache alike.
 */
export async function restoreDefaultSettings(page: Page): Promise<void> {
  await saveSettings(page, DEFAULT_USER_SETTINGS);
}

/** Saves the signed-in user's settings on the server and in the page's cache, as the app keeps them. */
export async function saveSettings(page: Page, settings: UserSettings): Promise<void> {
  const status = await page.evaluate(async (chosen) => {
    const response = await fetch('/api/user-settings', {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(chosen),
    });
    localStorage.setItem('userSettings', JSON.stringify(chosen));
    return response.status;
  }, settings);
  if (status !== 200) throw new Error(`Saving the settings answered ${status}`);
}
