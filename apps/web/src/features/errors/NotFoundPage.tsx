import { CompassIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useTranslation } from 'react-i18next';

/** Any path outside the route table (spec §2). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-background p-8 text-center text-foreground">
      <CompassIcon className="size-12 text-muted-foreground" aria-hidden />
      <h1 className="text-3xl font-bold">{t('common:notFound.title')}</h1>
      <p className="max-w-md text-muted-foreground">{t('common:notFound.message')}</p>
      <Button asChild>
        <Link to="/">{t('common:returnHome')}</Link>
      </Button>
    </main>
  );
}
