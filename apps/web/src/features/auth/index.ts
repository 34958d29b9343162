/**
 * Sign-in for the whole app. Screens use:
 *   const { isLoading, isAuthenticated, user, signIn, signOut, getDataToken } = useAuth();
 *   hasGroup(user, 'admin'), hasAnyGroup(user, ['admin', 'circor']), hasAllGroups(user, [...])
 * startSignIn() is the landing page action for code outside React.
 */
export { AuthProvider } from './components/AuthProvider';
export { ProtectedRoute } from './components/ProtectedRoute';
export type { AuthState } from './hooks/auth-context';
export { useAuth } from './hooks/useAuth';
export { roleText, type AuthUser } from './utils/auth-user';
export {
  clientContextFor,
  hasAllGroups,
  hasAnyGroup,
  hasGroup,
  hasKnownGroup,
  type ClientContext,
} from '@/lib/auth/groups';
export { homePathFor } from '@/lib/auth/post-login-path';
export { startSignIn } from './utils/session-actions';
export { getAccessToken, getDataToken } from '@/lib/auth/token-store';
