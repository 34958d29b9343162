import { createContext } from 'react';
import type { AuthClient } from '../utils/auth-client';
import type { AuthUser } from '../utils/auth-user';

/** What useAuth() returns. */
export type AuthState = {
  /** True until the sign-in configuration and any stored session have been read. */
  isLoading: boolean;
  isAuthenticated: boolean;
  user: AuthUser | null;
  error: Error | null;
  /** Starts sign-in (landing page action): post-login target /demand-planning. */
  signIn: () => void;
  /** Signs out (spec §4 'Sign Out'): clears storage, toasts 'Logged Out', goes to / after 100 ms. */
  signOut: () => void;
  /** The bearer token data calls send (spec §4 'Token retrieval'), or null when signed out. */
  getDataToken: () => string | null;
  /** The OIDC client once loaded; the callback and debug pages use it. */
  client: AuthClient | null;
};

export const AuthContext = createContext<AuthState | null>(null);
