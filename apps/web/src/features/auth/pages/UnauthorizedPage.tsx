import { ArrowLeftIcon, HomeIcon, ShieldXIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import type { DeniedState } from '../components/ProtectedRoute';
import { useAuth } from '../hooks/useAuth';

function deniedStateOf(state: unknown): DeniedState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { from, requiredGroups } = state as Partial<DeniedState>;
  return typeof from === 'string' && Array.isArray(requiredGroups) ? { from, requiredGroups } : null;
}

/**
 * /unauthorized, the Access Denied page (spec §2): the user's current roles, Return to Home and
 * Go Back, and a note to contact an administrator. Users in no valid group land here after sign-in.
 */
export default function UnauthorizedPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const location = useLocation();
  // The denial is shown once: the history entry forgets it, so a reload or the same address opened
  // again later does not repeat an old denial.
  const [denied] = useState(() => deniedStateOf(location.state));
  useEffect(() => {
    if (location.state !== null) void navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);
  const roles = user?.groups ?? [];
  return (
    <main className="flex flex-1 items-center justify-center p-8">
      <div className="w-full max-w-lg rounded-lg border border-border bg-card p-8 text-center shadow-sm">
        <ShieldXIcon className="mx-auto size-12 text-destructive" aria-hidden />
        <h1 className="mt-4 text-2xl font-semibold">{t('auth:accessDenied')}</h1>
        <p className="mt-2 text-muted-foreground">{t('auth:noPermission')}</p>
        {denied && (
          <p className="mt-2 text-sm text-muted-foreground">
            <Trans
              i18nKey="auth:requires"
              values={{ path: denied.from, groups: denied.requiredGroups.join(', ') }}
              components={{ strong: <span className="font-medium text-foreground" /> }}
            />
          </p>
        )}
        <div className="mt-6 rounded-md bg-muted p-4 text-left text-sm">
          <p className="font-medium">{t('auth:currentRoles')}</p>
          {roles.length > 0 ? (
            <ul className="mt-2 flex flex-wrap gap-2">
              {roles.map((role) => (
                <li key={role} className="rounded-full bg-secondary px-2.5 py-0.5 text-xs font-medium">
                  {role}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-muted-foreground">{t('auth:noRoles')}</p>
          )}
        </div>
        <div className="mt-6 flex justify-center gap-3">
          <Button asChild>
            <Link to="/">
              <HomeIcon aria-hidden />
              {t('common:returnHome')}
            </Link>
          </Button>
          <Button variant="outline" onClick={() => void navigate(-1)}>
            <ArrowLeftIcon aria-hidden />
            {t('auth:goBack')}
          </Button>
        </div>
        <p className="mt-6 text-sm text-muted-foreground">{t('auth:contactAdmin')}</p>
      </div>
    </main>
  );
}
