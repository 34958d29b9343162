import { CLIENT_IDS } from '@ps/domain';
import type { AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { readGroupsClaim } from './groups-claim';

/**
 * Turns verified token claims into what the caller may touch (spec §6): `admin` sees and edits
 * every client's records and may run admin-only operations; `circor` sees and edits only the
 * circor client's records (customer collaborative planning); anyone else reaches only their own account
 * (route-access.ts refuses them every route of a higher level).
 */
export function accessScopeFromClaims(claims: Record<string, unknown>, groupsClaim: string): AccessScope {
  const groups = readGroupsClaim(claims, groupsClaim);
  const text = (key: string) => (typeof claims[key] === 'string' && claims[key] ? claims[key] : undefined);
  const userId = text('sub');
  if (!userId) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  // The name is what audit rows and last_updated_by show; email and subject are fallbacks.
  const userName = text('name') ?? text('email') ?? text('preferred_username') ?? userId;
  const email = [text('email'), text('preferred_username')].find((value) => value?.includes('@'));
  const tokenExpiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  const who = { userId, userName, email, groups, tokenExpiresAt };
  if (groups.includes('admin')) return { ...who, clientIds: CLIENT_IDS, canWrite: true, isAdmin: true };
  if (groups.includes('circor')) return { ...who, clientIds: ['circor'], canWrite: true, isAdmin: false };
  // No known group: the user's own account (their settings) and nothing of any client.
  return { ...who, clientIds: [], canWrite: false, isAdmin: false };
}
