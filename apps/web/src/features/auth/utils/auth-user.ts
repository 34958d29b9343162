import { readGroups } from '@/lib/auth/groups';
import { i18next } from '../../../i18n/i18n';

/** The signed-in person as screens see them. */
export type AuthUser = {
  sub: string;
  name: string;
  email: string;
  /** Groups from the token's groups claim (spec §6). */
  groups: string[];
  /** Display role label (spec §6 default 'Demand Planner'). */
  role: string;
  /** Every identity-token claim, for the debug page and provider-specific needs. */
  claims: Record<string, unknown>;
};

export const DEFAULT_ROLE_LABEL = 'Demand Planner';

/** The role as the user reads it: the spec's stored default in the interface language. */
export function roleText(role: string): string {
  return role === DEFAULT_ROLE_LABEL ? i18next.t('auth:defaultRole') : role;
}

/**
 * Builds the user from identity-token claims. `groupsError` is set when the groups claim could not
 * be read; the callback then routes to /demand-planning as spec §4 says.
 */
export function authUserFromClaims(
  claims: Record<string, unknown>,
  groupsClaim: string,
): { user: AuthUser; groupsError: Error | null } {
  let groups: string[] = [];
  let groupsError: Error | null = null;
  try {
    groups = readGroups(claims, groupsClaim);
  } catch (error) {
    groupsError = error instanceof Error ? error : new Error(String(error));
  }
  const text = (key: string) => (typeof claims[key] === 'string' ? claims[key] : '');
  const email = text('email');
  return {
    user: {
      sub: text('sub'),
      name: text('name') || text('preferred_username') || email || text('sub'),
      email,
      groups,
      role: text('role') || DEFAULT_ROLE_LABEL,
      claims,
    },
    groupsError,
  };
}

/** Reads a JWT's payload without verifying it: the server verifies; the browser only displays. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
