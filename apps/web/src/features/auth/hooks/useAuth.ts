import { useContext } from 'react';
import { AuthContext, type AuthState } from './auth-context';

/**
 * The sign-in state and actions. Throws outside <AuthProvider> (spec §8: using the auth hook outside
 * its provider throws an error).
 */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used within an AuthProvider');
  return state;
}
