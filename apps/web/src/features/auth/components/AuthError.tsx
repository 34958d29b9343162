import { AlertTriangleIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** Shown when sign-in failed and no stored tokens can stand in (spec §2 protected-screen behaviour). */
export function AuthError({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-[50vh] flex-1 items-center justify-center p-8">
      <div
        role="alert"
        className="w-full max-w-md rounded-lg border border-border bg-card p-8 text-center shadow-sm"
      >
        <AlertTriangleIcon className="mx-auto size-12 text-destructive" aria-hidden />
        <h1 className="mt-4 text-2xl font-semibold">{t('auth:authError')}</h1>
        <p className="mt-2 text-muted-foreground">{message}</p>
        <Button asChild className="mt-6">
          <Link to="/">{t('common:returnHome')}</Link>
        </Button>
      </div>
    </div>
  );
}
