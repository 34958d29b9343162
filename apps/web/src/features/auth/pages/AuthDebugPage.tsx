import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '../hooks/useAuth';
import { LOCAL_KEYS, OIDC_USER_PREFIX, SESSION_KEYS } from '@/lib/auth/storage-keys';

const TOKEN_KEYS = [LOCAL_KEYS.accessToken, LOCAL_KEYS.idToken, LOCAL_KEYS.refreshToken] as const;

/** Present or none only: the debug page never shows a token's value. */
const presenceKey = (value: string | null) => (value ? 'auth:debug.present' : 'auth:debug.none');
const booleanKey = (value: boolean) => (value ? 'auth:debug.yes' : 'auth:debug.no');

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-border py-1.5 text-sm last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-mono break-all">{value}</dd>
    </div>
  );
}

function oidcUserEntries(): string[] {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key?.startsWith(OIDC_USER_PREFIX)) keys.push(key);
  }
  return keys;
}

/** /auth/debug (spec §2): sign-in state, URL parts, which tokens are stored, session flags and tools. */
export default function AuthDebugPage() {
  const { isLoading, isAuthenticated, user, error, client, signIn, signOut } = useAuth();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const none = t('auth:debug.none');
  const notLoaded = t('auth:debug.notLoaded');
  const presence = (value: string | null) => t(presenceKey(value));
  const [, setRefreshedAt] = useState(0);
  const url = new URL(window.location.href);
  const oidcEntries = oidcUserEntries();

  const clearAllAndReload = () => {
    localStorage.clear();
    sessionStorage.clear();
    window.location.reload();
  };

  return (
    <main className="mx-auto max-w-4xl space-y-6 bg-background p-8 text-foreground">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('auth:debug.title')}</h1>
        <Button variant="outline" size="sm" onClick={() => setRefreshedAt(Date.now())}>
          {t('auth:debug.refresh')}
        </Button>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={signIn}>{t('auth:debug.login')}</Button>
        <Button variant="outline" onClick={signOut}>
          {t('auth:debug.logout')}
        </Button>
        <Button variant="outline" onClick={() => void navigate('/demand-planning')}>
          {t('auth:debug.goToDemandPlanning')}
        </Button>
        <Button variant="destructive" onClick={clearAllAndReload}>
          {t('auth:debug.clearAll')}
        </Button>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t('auth:debug.signInState')}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label={t('auth:debug.loading')} value={t(booleanKey(isLoading))} />
              <Row label={t('auth:debug.authenticated')} value={t(booleanKey(isAuthenticated))} />
              <Row
                label={t('auth:debug.user')}
                value={user ? `${user.name} (${user.email || user.sub})` : none}
              />
              <Row label={t('auth:debug.groups')} value={user ? user.groups.join(', ') || none : none} />
              <Row label={t('auth:debug.error')} value={error?.message ?? none} />
              <Row label={t('auth:debug.issuer')} value={client?.config.issuer ?? notLoaded} />
              <Row label={t('auth:debug.clientId')} value={client?.config.clientId ?? notLoaded} />
              <Row label={t('auth:debug.groupsClaim')} value={client?.config.groupsClaim ?? notLoaded} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('auth:debug.identityPool')}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label={t('auth:debug.cloudCredentials')} value={t('auth:debug.cloudCredentialsValue')} />
              <Row
                label={t('auth:debug.clientContext')}
                value={localStorage.getItem(LOCAL_KEYS.clientContext) ?? none}
              />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('auth:debug.url')}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label={t('auth:debug.origin')} value={url.origin} />
              <Row label={t('auth:debug.path')} value={url.pathname} />
              <Row label={t('auth:debug.query')} value={url.search || none} />
              <Row label={t('auth:debug.hash')} value={url.hash || none} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('auth:debug.storedTokens')}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              {TOKEN_KEYS.map((key) => (
                <Row key={key} label={key} value={presence(localStorage.getItem(key))} />
              ))}
              <Row
                label={LOCAL_KEYS.tokenExpiresAt}
                value={presence(localStorage.getItem(LOCAL_KEYS.tokenExpiresAt))}
              />
              <Row
                label={LOCAL_KEYS.isAuthenticated}
                value={localStorage.getItem(LOCAL_KEYS.isAuthenticated) ?? none}
              />
              <Row label={LOCAL_KEYS.authUser} value={presence(localStorage.getItem(LOCAL_KEYS.authUser))} />
              <Row
                label={t('auth:debug.oidcEntries')}
                value={
                  oidcEntries.length > 0
                    ? t('auth:debug.oidcEntriesPresent', { count: oidcEntries.length })
                    : none
                }
              />
            </dl>
          </CardContent>
        </Card>
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle>{t('auth:debug.sessionFlags')}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row
                label={SESSION_KEYS.authRedirect}
                value={sessionStorage.getItem(SESSION_KEYS.authRedirect) ?? none}
              />
              <Row
                label={SESSION_KEYS.loggedOut}
                value={sessionStorage.getItem(SESSION_KEYS.loggedOut) ?? none}
              />
              <Row
                label={SESSION_KEYS.callbackProcessing}
                value={sessionStorage.getItem(SESSION_KEYS.callbackProcessing) ?? none}
              />
              <Row
                label={SESSION_KEYS.processedCode}
                value={presence(sessionStorage.getItem(SESSION_KEYS.processedCode))}
              />
            </dl>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
