import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth';
import { BrandLogo } from '@/features/shell/components/BrandLogo';

/** The screens the customer's users can open (route table: circor). */
const CUSTOMER_SCREENS = [
  {
    to: '/control-tower',
    title: 'Demand Planning Review Worksheet',
    description: 'Cycle-to-cycle forecast analysis and management visibility.',
  },
  {
    to: '/control-tower/forecast-accuracy-metrics',
    title: 'Forecast Accuracy Metrics',
    description: 'Accuracy, MAPE and bias of published forecasts.',
  },
  {
    to: '/control-tower/inventory-metrics',
    title: 'Inventory Metrics',
    description: 'Inventory value, turnover, stockouts and service level.',
  },
  {
    to: '/control-tower/sd-match-trend',
    title: 'S&D Match Trend',
    description: 'How well supply has matched demand over recent cycles.',
  },
  {
    to: '/demand-planning-review',
    title: 'Demand Planning Review',
    description: 'Your demand plan reviewed quarter by quarter.',
  },
] as const;

/** Customer home (spec §2 /circor) with the customer's branding. */
export default function CircorHomePage() {
  const { user } = useAuth();
  return (
    <div className="flex flex-col gap-8 p-6">
      <section className="flex flex-col gap-4 rounded-xl border border-border bg-card p-8">
        <BrandLogo isCustomer />
        <h1 className="text-3xl font-bold tracking-tight">Welcome{user?.name ? `, ${user.name}` : ''}</h1>
        <p className="max-w-2xl text-muted-foreground">
          Your planning workspace: follow your demand plan, forecast accuracy and supply–demand match in the
          control tower. Only your organisation&apos;s data is shown here.
        </p>
      </section>
      <section aria-labelledby="circor-screens-heading" className="flex flex-col gap-4">
        <h2 id="circor-screens-heading" className="text-lg font-semibold">
          Control tower
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
                      {screen.title}
                      <ArrowRightIcon
                        className="size-4 text-muted-foreground group-hover:text-primary"
                        aria-hidden
                      />
                    </CardTitle>
                    <CardDescription>{screen.description}</CardDescription>
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
