import type { Page } from 'playwright-core';

/** The embedded identity provider's demo users (apps/server/src/auth/demo-users.ts). */
export const DEMO_USERS = {
  admin: { email: 'admin@demo.local', password: 'admin-demo', home: '/demand-planning' },
  circor: { email: 'circor@demo.local', password: 'circor-demo', home: '/circor' },
  viewer: { email: 'viewer@demo.local', password: 'viewer-demo', home: '/unauthorized' },
} as const;

export type DemoUser = keyof typeof DEMO_USERS;

/**
 * Signs in through the real provider sign-in page (authorization code + PKCE) and waits until the
 * app has routed the user to their home screen (spec §4: admin → /demand-planning, circor →
 * /circor, no group → /unauthorized). The page must belong to a context created with the app's
 * baseURL (newPage does that).
 */
export async function signIn(page: Page, user: DemoUser): Promise<void> {
  const { email, password, home } = DEMO_USERS[user];
  await page.goto('/api/auth/login');
  await page.locator('#email').waitFor();
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === home, { timeout: 30_000 });
}
