import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** What the browser needs to start sign-in. */
export const ZAuthClientConfig = z.strictObject({
  issuer: z.url(),
  clientId: z.string().min(1),
  scopes: z.string().min(1),
  groupsClaim: z.string().min(1),
});
export type AuthClientConfig = z.infer<typeof ZAuthClientConfig>;

export const authEndpoints = {
  config: defineEndpoint({
    method: 'GET',
    path: '/api/auth/config',
    access: 'public',
    summary: 'The identity provider the browser signs in with',
    response: { data: ZAuthClientConfig },
  }),
  login: defineEndpoint({
    method: 'GET',
    path: '/api/auth/login',
    access: 'public',
    summary: "The spec's fallback login address: redirects to the app's sign-in page",
    status: 302,
    response: { redirect: true },
  }),
};
