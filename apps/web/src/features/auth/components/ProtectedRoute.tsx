import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '../hooks/useAuth';
import { hasAnyGroup } from '@/lib/auth/groups';
import { rememberPostLoginTarget } from '@/lib/auth/post-login-path';
import { hasStoredTokens } from '@/lib/auth/token-store';
import { AccessDenied } from './AccessDenied';
import { AuthError } from './AuthError';
import { AuthStatus } from './AuthStatus';

type ProtectedRouteProps = {
  children: ReactNode;
  /** Groups that open the screen; one match grants access. Absent: any signed-in user. */
  allowedGroups?: string[] | undefined;
  /** Where a user without the groups is sent (spec default /unauthorized). */
  fallbackPath?: string;
};

/** What the denied user's Access Denied page can show about the screen they tried. */
export type DeniedState = { from: string; requiredGroups: string[] };

/**
 * Spec §2 protected-screen behaviour: 'Verifying authentication...' while checking; the
 * Authentication Error screen; 'Redirecting to login...' then / (remembering the path); for
 * group-restricted screens 'Checking permissions...' and Access Denied, then the fallback path.
 */
export function ProtectedRoute({
  children,
  allowedGroups,
  fallbackPath = '/unauthorized',
}: ProtectedRouteProps) {
  const { isLoading, isAuthenticated, user, error } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const isRestricted = !!allowedGroups && allowedGroups.length > 0;
  const isDenied = isAuthenticated && isRestricted && !!user && !hasAnyGroup(user, allowedGroups);
  const showsError = !isLoading && !!error && !hasStoredTokens();
  const mustSignIn = !isLoading && !showsError && !isAuthenticated;

  useEffect(() => {
    if (!mustSignIn) return;
    rememberPostLoginTarget(location.pathname, location.search);
    void navigate('/', { replace: true });
  }, [mustSignIn, location.pathname, location.search, navigate]);

  useEffect(() => {
    if (!isDenied) return;
    const state: DeniedState = { from: location.pathname, requiredGroups: allowedGroups ?? [] };
    void navigate(fallbackPath, { replace: true, state });
  }, [isDenied, fallbackPath, location.pathname, allowedGroups, navigate]);

  if (isLoading)
    return (
      <AuthStatus
        message={isRestricted ? t('auth:status.checkingPermissions') : t('auth:status.verifying')}
      />
    );
  if (showsError) return <AuthError message={error.message} />;
  if (!isAuthenticated) return <AuthStatus message={t('auth:status.redirectingToLogin')} />;
  if (isDenied) return <AccessDenied groups={user.groups} requiredGroups={allowedGroups ?? []} />;
  return <>{children}</>;
}
