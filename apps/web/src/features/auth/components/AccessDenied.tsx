import { ShieldXIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

type AccessDeniedProps = { groups: readonly string[]; requiredGroups: readonly string[] };

/** What a group-restricted screen shows a signed-in user who lacks its groups (spec §2). */
export function AccessDenied({ groups, requiredGroups }: AccessDeniedProps) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-[50vh] flex-1 items-center justify-center p-8">
      <div className="w-full max-w-md rounded-lg border border-border bg-card p-8 text-center shadow-sm">
        <ShieldXIcon className="mx-auto size-12 text-destructive" aria-hidden />
        <h1 className="mt-4 text-2xl font-semibold">{t('auth:accessDenied')}</h1>
        <p className="mt-2 text-muted-foreground">{t('auth:noPermission')}</p>
        <dl className="mt-4 space-y-1 text-sm">
          <div>
            <dt className="inline font-medium">{t('auth:yourGroups')} </dt>
            <dd className="inline">{groups.length > 0 ? groups.join(', ') : t('auth:none')}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t('auth:requiredGroups')} </dt>
            <dd className="inline">{requiredGroups.join(', ')}</dd>
          </div>
        </dl>
        <Button asChild className="mt-6">
          <Link to="/">{t('common:returnHome')}</Link>
        </Button>
      </div>
    </div>
  );
}
