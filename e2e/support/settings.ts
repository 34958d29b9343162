import { DEFAULT_USER_SETTINGS } from '@ps/domain';
import type { Page } from 'playwright-core';

/**
 * Settings follow the user on the server, and every browser test signs in as the same demo users
 * on one shared server: a test that changes settings puts the defaults back when it is done, in
 * the server's copy and the page's cache alike.
 */
export async function restoreDefaultSettings(page: Page): Promise<void> {
  const status = await page.evaluate(async (defaults) => {
    const response = await fetch('/api/user-settings', {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${localStorage.getItem('id_token') ?? ''}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(defaults),
    });
    localStorage.setItem('userSettings', JSON.stringify(defaults));
    return response.status;
  }, DEFAULT_USER_SETTINGS);
  if (status !== 200) throw new Error(`Restoring the default settings answered ${status}`);
}
