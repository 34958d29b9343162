import { ArrowRightIcon, CalendarClockIcon, ExternalLinkIcon, LogInIcon, SparklesIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/features/auth';
import { BrandLogo } from '@/features/shell/components/BrandLogo';
import { FeatureCard } from './components/FeatureCard';
import { MEETING_URL, SOLUTIONS_URL } from './external-links';
import { LANDING_FEATURES } from './features';

/** Public landing page (spec §2 '/'): Login, Get Started and Start Your Journey all start sign-in. */
export default function LandingPage() {
  const { signIn } = useAuth();

  return (
    <div className="min-h-screen bg-background text-foreground">
      <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-6">
          <BrandLogo isCustomer={false} />
          <nav aria-label="Landing" className="flex items-center gap-2">
            <Button variant="ghost" asChild className="hidden sm:inline-flex">
              <a href="#features">Features</a>
            </Button>
            <Button onClick={signIn}>
              <LogInIcon aria-hidden /> Login
            </Button>
          </nav>
        </div>
      </header>

      <main>
        <section className="relative overflow-hidden bg-gradient-to-br from-blue-50 via-background to-indigo-50 dark:from-blue-950/40 dark:via-background dark:to-indigo-950/40">
          <div className="mx-auto flex max-w-6xl flex-col items-center gap-6 px-6 py-24 text-center">
            <span className="inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
              <SparklesIcon className="size-3.5 text-primary" aria-hidden /> AI-driven supply chain planning
            </span>
            <h1 className="max-w-4xl text-4xl font-extrabold tracking-tight sm:text-6xl">
              Transform Your Supply Chain
            </h1>
            <p className="max-w-2xl text-lg text-muted-foreground">
              An AI-driven platform for demand planning and forecasting across a multi-level organizational
              hierarchy, with forecasting analytics and data visualization from single products up to whole
              business units.
            </p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button size="lg" onClick={signIn}>
                Get Started <ArrowRightIcon aria-hidden />
              </Button>
              <Button size="lg" variant="outline" asChild>
                <a href={SOLUTIONS_URL} target="_blank" rel="noopener noreferrer">
                  Learn More <ExternalLinkIcon aria-hidden />
                  <span className="sr-only">(opens in a new tab)</span>
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
              Everything planners need in one place
            </h2>
            <p className="mt-3 text-muted-foreground">
              Forecast, adjust, compare and publish demand plans with the whole team.
            </p>
          </div>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {LANDING_FEATURES.map((feature) => (
              <li key={feature.title}>
                <FeatureCard {...feature} />
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="cta-heading" className="px-6 pb-24">
          <div className="mx-auto flex max-w-4xl flex-col items-center gap-5 rounded-2xl bg-gradient-to-r from-blue-700 to-indigo-700 px-8 py-14 text-center text-white shadow-lg">
            <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
              Ready to Optimize Your Supply Chain?
            </h2>
            <p className="max-w-xl text-blue-50">
              Sign in to review forecasts, record overrides and publish your next plan cycle.
            </p>
            <Button size="lg" variant="secondary" onClick={signIn}>
              Start Your Journey <ArrowRightIcon aria-hidden />
            </Button>
          </div>
        </section>
      </main>

      <footer className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-6 py-6 text-sm text-muted-foreground sm:flex-row">
          <BrandLogo isCustomer={false} />
          <p>© 2025 Planning Suite. All rights reserved.</p>
        </div>
      </footer>

      <a
        href={MEETING_URL}
        target="_blank"
        rel="noopener noreferrer"
        className="fixed right-6 bottom-6 z-40 inline-flex items-center gap-2 rounded-full bg-primary px-5 py-3 text-sm font-semibold text-primary-foreground shadow-lg outline-none hover:bg-primary/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      >
        <CalendarClockIcon className="size-4" aria-hidden /> Let&apos;s Connect
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </div>
  );
}
