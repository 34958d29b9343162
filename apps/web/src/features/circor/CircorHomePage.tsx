import { useQuery } from '@tanstack/react-query';
import { ArrowRightIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth';
import { controlTowerKeys, fetchControlTowerHome } from '@/features/control-tower';
import { useFormatters } from '@/lib/settings/useFormatters';
import { BrandLogo } from '@/components/BrandLogo';

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
  const format = useFormatters();
  const home = useQuery({
    queryKey: controlTowerKeys.home(),
    queryFn: ({ signal }) => fetchControlTowerHome(signal),
  });
  const figures = home.data
    ? [
        {
          key: 'plan',
          title: t('circor:figures.plan'),
          value: format.currency(home.data.planRevenue, 0),
          note: t('circor:figures.planNote', { quarter: home.data.currentQuarter }),
        },
        {
          key: 'accuracy',
          title: t('circor:figures.accuracy'),
          value: home.data.accuracy === null ? '-' : format.percent(home.data.accuracy),
          note: t('circor:figures.accuracyNote', {
            bias: home.data.bias === null ? '-' : format.percent(home.data.bias),
          }),
        },
        {
          key: 'alerts',
          title: t('circor:figures.alerts'),
          value: format.number(home.data.alerts),
          note: t('circor:figures.alertsNote'),
        },
        {
          key: 'cycle',
          title: t('circor:figures.lastCycle'),
          value: home.data.lastCycle?.label ?? '-',
          note: home.data.lastCycle
            ? t('circor:figures.lastCycleNote', {
                date: format.date(home.data.lastCycle.publishedAt),
                by: home.data.lastCycle.publishedBy,
                revenue: format.currency(home.data.lastCycle.revenue, 0),
              })
            : t('circor:figures.noCycle'),
        },
      ]
    : [];
  return (
    <div className="flex flex-col gap-8 p-6">
      <section className="flex flex-col gap-4 rounded-xl border border-border bg-card p-8">
        <BrandLogo isCustomer />
        <h1 className="text-3xl font-bold tracking-tight">
          {user?.name ? t('circor:welcomeName', { name: user.name }) : t('circor:welcome')}
        </h1>
        <p className="max-w-2xl text-muted-foreground">{t('circor:intro')}</p>
      </section>
      <section aria-labelledby="circor-figures-heading" className="flex flex-col gap-4">
        <h2 id="circor-figures-heading" className="text-lg font-semibold">
          {t('circor:figures.title')}
        </h2>
        {home.data ? (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {figures.map((figure) => (
              <li key={figure.key}>
                <Card className="h-full">
                  <CardHeader className="pb-2">
                    <CardTitle className="text-sm font-medium text-muted-foreground">
                      {figure.title}
                    </CardTitle>
                  </CardHeader>
                  <CardContent>
                    <p className="text-2xl font-bold">{figure.value}</p>
                    <p className="mt-1 text-xs text-muted-foreground">{figure.note}</p>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t('common:loading')}</p>
        )}
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
