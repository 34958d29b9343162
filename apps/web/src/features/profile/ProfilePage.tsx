import { UserIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { clientContextFor, roleText, useAuth } from '@/features/auth';
import { useFormatters } from '@/lib/settings/useFormatters';
import { PageHeading } from '@/components/PageHeading';
import { initialsOf } from '@/features/shell';
import { claimRows } from './claim-rows';
import { useTranslation } from 'react-i18next';

/** Profile (spec §2): the signed-in user's identity, groups and token claims. */
export default function ProfilePage() {
  const { user } = useAuth();
  const formatters = useFormatters();
  const { t } = useTranslation();
  if (!user) return null;
  const rows = claimRows(user.claims, formatters.dateTime);

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading title={t('profile:title')} subtitle={t('profile:subtitle')} />
      <Card>
        <CardContent className="flex flex-wrap items-center gap-6 pt-6">
          <span
            className="flex size-16 items-center justify-center rounded-full bg-primary text-xl font-semibold text-primary-foreground"
            aria-hidden
          >
            {initialsOf(user.name) || <UserIcon className="size-8" />}
          </span>
          <dl className="grid flex-1 gap-x-8 gap-y-3 sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <dt className="text-xs text-muted-foreground">{t('profile:name')}</dt>
              <dd className="font-medium">{user.name}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">{t('profile:email')}</dt>
              <dd className="font-medium break-all">{user.email || '—'}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">{t('profile:role')}</dt>
              <dd className="font-medium">{roleText(user.role)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">{t('profile:organisation')}</dt>
              <dd className="font-medium">{t('shell:organisation')}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>{t('profile:groups')}</CardTitle>
            <CardDescription>{t('profile:groupsHint')}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <ul className="flex flex-wrap gap-2" aria-label={t('profile:groups')}>
              {user.groups.length === 0 ? (
                <li className="text-sm text-muted-foreground">{t('profile:noGroups')}</li>
              ) : (
                user.groups.map((group) => (
                  <li key={group}>
                    <Badge variant="secondary">{group}</Badge>
                  </li>
                ))
              )}
            </ul>
            <p className="text-sm">
              <span className="text-muted-foreground">{t('profile:dataContext')} </span>
              <span className="font-medium">{clientContextFor(user.groups)}</span>
            </p>
          </CardContent>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>{t('profile:claims')}</CardTitle>
            <CardDescription>{t('profile:claimsHint')}</CardDescription>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm">
              <thead className="sr-only">
                <tr>
                  <th scope="col">{t('profile:claim')}</th>
                  <th scope="col">{t('profile:value')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.name} className="border-b border-border last:border-0">
                    <th
                      scope="row"
                      className="py-2 pr-4 text-left align-top font-mono text-xs font-normal text-muted-foreground"
                    >
                      {row.name}
                    </th>
                    <td className="py-2 font-mono text-xs break-all">{row.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
