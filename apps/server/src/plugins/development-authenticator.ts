import { CLIENT_IDS } from '@ps/domain';
import type { Authenticator } from './request-context';

/**
 * Stand-in until token verification lands (sign-in issue): every caller is an admin.
 * main.ts is the only user; replace it there with the verifying authenticator.
 */
export const developmentAuthenticator: Authenticator = async () => ({
  userId: 'demo-admin',
  userName: 'Demo Admin',
  clientIds: CLIENT_IDS,
  canWrite: true,
});
