import { LOCAL_KEYS, OIDC_USER_PREFIX } from '@/lib/auth/storage-keys';

/** The parts of a token response the app keeps (spec §3 'Sign-in user'). */
export type StoredTokens = {
  accessToken: string;
  idToken: string | undefined;
  refreshToken: string | undefined;
  tokenType: string;
  /** Seconds until the access token expires, as the token endpoint reported it. */
  expiresIn: number | undefined;
};

/** Writes the spec's token keys after a sign-in or a silent renewal. */
export function storeTokens(tokens: StoredTokens, now = Date.now()): void {
  const set = (key: string, value: string | undefined) =>
    value === undefined ? localStorage.removeItem(key) : localStorage.setItem(key, value);
  set(LOCAL_KEYS.accessToken, tokens.accessToken);
  set(LOCAL_KEYS.idToken, tokens.idToken);
  set(LOCAL_KEYS.refreshToken, tokens.refreshToken);
  set(LOCAL_KEYS.tokenType, tokens.tokenType);
  set(
    LOCAL_KEYS.tokenExpiresAt,
    tokens.expiresIn === undefined ? undefined : String(now + tokens.expiresIn * 1000),
  );
  localStorage.setItem(LOCAL_KEYS.isAuthenticated, 'true');
}

/** Removes every token the app or the OIDC library stored. */
export function clearTokens(): void {
  for (const key of [
    LOCAL_KEYS.accessToken,
    LOCAL_KEYS.idToken,
    LOCAL_KEYS.refreshToken,
    LOCAL_KEYS.tokenType,
    LOCAL_KEYS.tokenExpiresAt,
    LOCAL_KEYS.authUser,
    LOCAL_KEYS.clientContext,
    LOCAL_KEYS.groups,
  ]) {
    localStorage.removeItem(key);
  }
  for (const key of oidcUserKeys()) localStorage.removeItem(key);
}

function oidcUserKeys(): string[] {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key?.startsWith(OIDC_USER_PREFIX)) keys.push(key);
  }
  return keys;
}

/** The first OIDC library user entry's token of the given kind, if any. */
function oidcUserToken(kind: 'access_token' | 'id_token'): string | null {
  for (const key of oidcUserKeys()) {
    try {
      const entry = JSON.parse(localStorage.getItem(key) ?? 'null') as Record<string, unknown> | null;
      const token = entry?.[kind];
      if (typeof token === 'string' && token) return token;
    } catch {
      // A corrupt entry holds no usable token; the next one may.
    }
  }
  return null;
}

/**
 * Spec §4 'Token retrieval': a stored access token while token_expires_at is in the future (no
 * stored expiry counts as not valid), else the access token of an oidc.user:* entry, else none.
 */
export function getAccessToken(now = Date.now()): string | null {
  const stored = localStorage.getItem(LOCAL_KEYS.accessToken);
  const expiresAt = Number(localStorage.getItem(LOCAL_KEYS.tokenExpiresAt) ?? Number.NaN);
  if (stored && Number.isFinite(expiresAt) && expiresAt > now) return stored;
  return oidcUserToken('access_token');
}

/**
 * The bearer for data calls (spec §4): the signed-in user's ID token, else a stored ID token, else
 * a stored access token. The server verifies whichever it gets.
 */
export function getDataToken(): string | null {
  return (
    oidcUserToken('id_token') ??
    localStorage.getItem(LOCAL_KEYS.idToken) ??
    localStorage.getItem(LOCAL_KEYS.accessToken)
  );
}

/** Spec §5: the stored-token check requires both an access token and an ID token. */
export function hasStoredTokens(): boolean {
  return !!localStorage.getItem(LOCAL_KEYS.accessToken) && !!localStorage.getItem(LOCAL_KEYS.idToken);
}

/** Stored tokens count while their recorded expiry is ahead (spec §4/§5 stored-token check). */
export function hasLiveStoredSession(now = Date.now()): boolean {
  const expiresAt = Number(localStorage.getItem(LOCAL_KEYS.tokenExpiresAt) ?? Number.NaN);
  return hasStoredTokens() && Number.isFinite(expiresAt) && expiresAt > now;
}

/** The groups stored at sign-in; none when signed out or stored by an older version. */
export function storedGroups(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(LOCAL_KEYS.groups) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((g): g is string => typeof g === 'string') : [];
  } catch {
    return [];
  }
}
