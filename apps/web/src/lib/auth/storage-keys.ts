/** Browser storage keys of spec §3. */
export const LOCAL_KEYS = {
  isAuthenticated: 'isAuthenticated',
  currentUser: 'currentUser',
  userSettings: 'userSettings',
  /** When the cached userSettings last matched the server's copy (settings follow the user). */
  userSettingsSyncedAt: 'userSettingsSyncedAt',
  accessToken: 'access_token',
  idToken: 'id_token',
  refreshToken: 'refresh_token',
  tokenType: 'token_type',
  /** Epoch milliseconds: now + expires_in seconds. */
  tokenExpiresAt: 'token_expires_at',
  authUser: 'auth_user',
  clientContext: 'client_context',
  /** The signed-in user's groups (JSON list), for code that runs before the app knows the user. */
  groups: 'auth_groups',
} as const;

/** The OIDC library keeps its signed-in user under `oidc.user:{authority}:{client_id}`. */
export const OIDC_USER_PREFIX = 'oidc.user:';

export const SESSION_KEYS = {
  /** Post-login target path. */
  authRedirect: 'auth_redirect',
  loggedOut: 'loggedOut',
  /** Set while the callback exchanges a code; a flag older than 8 s is treated as stuck. */
  callbackProcessing: 'auth_callback_processing',
  callbackStartedAt: 'auth_callback_started_at',
  /** The last authorization code exchanged, so a reload of the callback URL never spends it twice. */
  processedCode: 'auth_processed_code',
} as const;
