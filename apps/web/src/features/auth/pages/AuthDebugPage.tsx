import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '../hooks/useAuth';
import { LOCAL_KEYS, OIDC_USER_PREFIX, SESSION_KEYS } from '../utils/storage-keys';

const TOKEN_KEYS = [LOCAL_KEYS.accessToken, LOCAL_KEYS.idToken, LOCAL_KEYS.refreshToken] as const;

/** Present or none only: the debug page never shows a token's value. */
const presence = (value: string | null) => (value ? 'present' : 'none');

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
        <h1 className="text-2xl font-semibold">Authentication debug</h1>
        <Button variant="outline" size="sm" onClick={() => setRefreshedAt(Date.now())}>
          Refresh
        </Button>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={signIn}>Trigger login</Button>
        <Button variant="outline" onClick={signOut}>
          Trigger logout
        </Button>
        <Button variant="outline" onClick={() => void navigate('/demand-planning')}>
          Go to /demand-planning
        </Button>
        <Button variant="destructive" onClick={clearAllAndReload}>
          Clear all storage and reload
        </Button>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Sign-in state</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Loading" value={String(isLoading)} />
              <Row label="Authenticated" value={String(isAuthenticated)} />
              <Row label="User" value={user ? `${user.name} (${user.email || user.sub})` : 'none'} />
              <Row label="Groups" value={user ? user.groups.join(', ') || 'none' : 'none'} />
              <Row label="Error" value={error?.message ?? 'none'} />
              <Row label="Issuer" value={client?.config.issuer ?? 'not loaded'} />
              <Row label="Client id" value={client?.config.clientId ?? 'not loaded'} />
              <Row label="Groups claim" value={client?.config.groupsClaim ?? 'not loaded'} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Identity pool</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Cloud credentials" value="not used (the API verifies the sign-in token)" />
              <Row label="Client context" value={localStorage.getItem(LOCAL_KEYS.clientContext) ?? 'none'} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>URL</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Origin" value={url.origin} />
              <Row label="Path" value={url.pathname} />
              <Row label="Query" value={url.search || 'none'} />
              <Row label="Hash" value={url.hash || 'none'} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Stored tokens</CardTitle>
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
                value={localStorage.getItem(LOCAL_KEYS.isAuthenticated) ?? 'none'}
              />
              <Row label={LOCAL_KEYS.authUser} value={presence(localStorage.getItem(LOCAL_KEYS.authUser))} />
              <Row
                label="oidc.user entries"
                value={oidcEntries.length > 0 ? `${oidcEntries.length} present` : 'none'}
              />
            </dl>
          </CardContent>
        </Card>
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle>Session flags</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row
                label={SESSION_KEYS.authRedirect}
                value={sessionStorage.getItem(SESSION_KEYS.authRedirect) ?? 'none'}
              />
              <Row
                label={SESSION_KEYS.loggedOut}
                value={sessionStorage.getItem(SESSION_KEYS.loggedOut) ?? 'none'}
              />
              <Row
                label={SESSION_KEYS.callbackProcessing}
                value={sessionStorage.getItem(SESSION_KEYS.callbackProcessing) ?? 'none'}
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
