import { CLIENT_IDS, type ClientId } from '@ps/domain';

/**
 * Who is calling and what they may touch, decided from the verified token (never from request
 * parameters alone). Services take this, so every query is scoped by construction.
 */
export type AccessScope = {
  userId: string;
  userName: string;
  /** From the token's email claim when it has one (notification mail goes there). */
  email?: string | undefined;
  /** The verified groups the scope was derived from (for logs and audit). */
  groups: readonly string[];
  /** Clients whose records this caller may read and change. */
  clientIds: readonly ClientId[];
  canWrite: boolean;
  /** Admin-only operations (publish, forecast runs, …) check this. */
  isAdmin: boolean;
  /** When the verified token stops counting (its exp, epoch ms): a long-lived stream ends then. */
  tokenExpiresAt?: number | undefined;
};

/**
 * Narrows a scope to the client context a caller asked for. An admin may look at one client's
 * data; a customer user asking for another client's context still sees only their own.
 */
export function narrowToContext(scope: AccessScope, clientContext: string | undefined): AccessScope {
  const requested = CLIENT_IDS.find((id) => id === clientContext);
  if (!requested || !scope.clientIds.includes(requested)) return scope;
  return { ...scope, clientIds: [requested] };
}
