import { ArrowRightIcon, CalendarClockIcon, ExternalLinkIcon, LogInIcon, SparklesIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Navigate } from 'react-router';
import { homePathFor, useAuth } from '@/features/auth';
import { BrandLogo } from '@/components/BrandLogo';
import { FeatureCard } from './components/FeatureCard';
import { MEETING_URL, SOLUTIONS_URL } from './external-links';
import { LANDING_FEATURES } from './features';

/** Public landing page (spec §2 '/'): Login, Get Started and Start Your Journey all start sign-in. */
export default function LandingPage() {
  const { signIn, isAuthenticated, user } = useAuth();
  const { t } = useTranslation();
  // A signed-in user has nothing to sign in to: / takes them into the app, to their home screen.
  if (isAuthenticated && user) return <Navigate to={homePathFor(user.groups)} replace />;

  return (
    <div className="min-h-screen bg-background text-foreground">
      <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-6">
          <BrandLogo isCustomer={false} />
          <nav aria-label={t('landing:navLabel')} className="flex items-center gap-2">
            <Button variant="ghost" asChild className="hidden sm:inline-flex">
              <a href="#features">{t('landing:features')}</a>
            </Button>
            <Button onClick={signIn}>
              <LogInIcon aria-hidden /> {t('landing:login')}
            </Button>
          </nav>
        </div>
      </header>

      <main>
        <section className="relative overflow-hidden bg-gradient-to-br from-blue-50 via-background to-indigo-50 dark:from-blue-950/40 dark:via-background dark:to-indigo-950/40">
          <div className="mx-auto flex max-w-6xl flex-col items-center gap-6 px-6 py-24 text-center">
            <span className="inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
              <SparklesIcon className="size-3.5 text-primary" aria-hidden /> {t('landing:badge')}
            </span>
            <h1 className="max-w-4xl text-4xl font-extrabold tracking-tight sm:text-6xl">
              {t('landing:title')}
            </h1>
            <p className="max-w-2xl text-lg text-muted-foreground">{t('landing:intro')}</p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button size="lg" onClick={signIn}>
                {t('landing:getStarted')} <ArrowRightIcon aria-hidden />
              </Button>
              <Button size="lg" variant="outline" asChild>
                <a href={SOLUTIONS_URL} target="_blank" rel="noopener noreferrer">
                  {t('landing:learnMore')} <ExternalLinkIcon aria-hidden />
                  <span className="sr-only">{t('landing:opensInNewTab')}</span>
                </a>
              </Button>
            </div>
          </div>
        </section>

        <section
          id="features"
          aria-labelledby="features-heading"
          className="mx-auto max-w-6xl scroll-mt-16 px-6 py-20"
        >
          <div className="mb-12 text-center">
            <h2 id="features-heading" className="text-3xl font-bold tracking-tight">
              {t('landing:featuresTitle')}
            </h2>
            <p className="mt-3 text-muted-foreground">{t('landing:featuresIntro')}</p>
          </div>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {LANDING_FEATURES.map((feature) => (
              <li key={feature.titleKey}>
                <FeatureCard {...feature} />
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="cta-heading" className="px-6 pb-24">
          <div className="mx-auto flex max-w-4xl flex-col items-center gap-5 rounded-2xl bg-gradient-to-r from-blue-700 to-indigo-700 px-8 py-14 text-center text-white shadow-lg">
            <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
              {t('landing:ctaTitle')}
            </h2>
            <p className="max-w-xl text-blue-50">{t('landing:ctaText')}</p>
            <Button size="lg" variant="secondary" onClick={signIn}>
              {t('landing:startJourney')} <ArrowRightIcon aria-hidden />
            </Button>
          </div>
        </section>
      </main>

      <footer className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-6 py-6 text-sm text-muted-foreground sm:flex-row">
          <BrandLogo isCustomer={false} />
          <p>{t('landing:copyright')}</p>
        </div>
      </footer>

      <a
        href={MEETING_URL}
        target="_blank"
        rel="noopener noreferrer"
        className="fixed right-6 bottom-6 z-40 inline-flex items-center gap-2 rounded-full bg-primary px-5 py-3 text-sm font-semibold text-primary-foreground shadow-lg outline-none hover:bg-primary/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      >
        <CalendarClockIcon className="size-4" aria-hidden /> {t('landing:connect')}
        <span className="sr-only">{t('landing:opensInNewTab')}</span>
      </a>
    </div>
  );
}
