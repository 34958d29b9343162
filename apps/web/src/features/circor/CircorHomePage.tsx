import { ArrowRightIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth';
import { BrandLogo } from '@/features/shell/components/BrandLogo';

/** The screens the customer's users can open (route table: circor). */
const CUSTOMER_SCREENS = [
  {
    to: '/control-tower',
    titleKey: 'circor:reviewWorksheet.title',
    descriptionKey: 'circor:reviewWorksheet.description',
  },
  {
    to: '/control-tower/forecast-accuracy-metrics',
    titleKey: 'circor:accuracy.title',
    descriptionKey: 'circor:accuracy.description',
  },
  {
    to: '/control-tower/inventory-metrics',
    titleKey: 'circor:inventory.title',
    descriptionKey: 'circor:inventory.description',
  },
  {
    to: '/control-tower/sd-match-trend',
    titleKey: 'circor:sdMatch.title',
    descriptionKey: 'circor:sdMatch.description',
  },
  {
    to: '/demand-planning-review',
    titleKey: 'circor:planningReview.title',
    descriptionKey: 'circor:planningReview.description',
  },
] as const;

/** Customer home (spec §2 /circor) with the customer's branding. */
export default function CircorHomePage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-8 p-6">
      <section className="flex flex-col gap-4 rounded-xl border border-border bg-card p-8">
        <BrandLogo isCustomer />
        <h1 className="text-3xl font-bold tracking-tight">
          {user?.name ? t('circor:welcomeName', { name: user.name }) : t('circor:welcome')}
        </h1>
        <p className="max-w-2xl text-muted-foreground">{t('circor:intro')}</p>
      </section>
      <section aria-labelledby="circor-screens-heading" className="flex flex-col gap-4">
        <h2 id="circor-screens-heading" className="text-lg font-semibold">
          {t('circor:controlTower')}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {CUSTOMER_SCREENS.map((screen) => (
            <li key={screen.to}>
              <Link
                to={screen.to}
                className="group block h-full rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Card className="h-full transition-colors group-hover:border-primary">
                  <CardHeader>
                    <CardTitle className="flex items-center justify-between gap-2 text-base">
                      {t(screen.titleKey)}
                      <ArrowRightIcon
                        className="size-4 text-muted-foreground group-hover:text-primary"
                        aria-hidden
                      />
                    </CardTitle>
                    <CardDescription>{t(screen.descriptionKey)}</CardDescription>
                  </CardHeader>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
