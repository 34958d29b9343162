import { ArrowLeftIcon, BellIcon, CheckCircle2Icon, ClipboardCheckIcon, RocketIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeading } from '@/features/shell/components/PageHeading';
import { MODULES } from '@/features/shell/modules';
import { useTranslation } from 'react-i18next';

/** What the quality module is planned to bring. */
const PLANNED_FEATURES = [
  'Supplier quality scorecards and incoming inspection tracking',
  'Defect and non-conformance analytics by product family and site',
  'Statistical process control charts with automatic alerts',
  'Root-cause analysis linking quality events to demand and supply',
  'Corrective and preventive action (CAPA) workflows',
] as const;

/** Quality control placeholder (spec §2): disabled module, shown as coming soon. */
export default function QualityControlPage() {
  const { quality } = MODULES;
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6 p-6">
      <Button variant="ghost" asChild className="self-start">
        <Link to="/demand-planning">
          <ArrowLeftIcon aria-hidden /> Back
        </Link>
      </Button>
      <PageHeading
        title={t(quality.nameKey)}
        subtitle="Monitor product and supplier quality alongside your demand plan, and act on issues before they reach customers."
        badges={
          <>
            <Badge variant="warning">Coming Soon</Badge>
            <Badge variant="outline">{`v${quality.version}`}</Badge>
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ClipboardCheckIcon className="size-5 text-primary" aria-hidden /> What to Expect
            </CardTitle>
            <CardDescription>Planned features of the quality module</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-3">
              {PLANNED_FEATURES.map((feature) => (
                <li key={feature} className="flex gap-3 text-sm">
                  <CheckCircle2Icon className="size-5 shrink-0 text-success" aria-hidden />
                  {feature}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <BellIcon className="size-5 text-primary" aria-hidden /> Stay Updated
              </CardTitle>
              <CardDescription>Expected release: {quality.expectedRelease}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              <Button disabled className="w-full">
                Notify Me When Available
              </Button>
              <p className="text-xs text-muted-foreground">
                Note: this feature is coming soon. Automatic notifications for new tool releases will be
                available then.
              </p>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <RocketIcon className="size-5 text-primary" aria-hidden /> Available Now
              </CardTitle>
              <CardDescription>
                Review and override demand forecasts in the {t(MODULES.demandPlanning.nameKey)} tool.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button variant="outline" asChild className="w-full">
                <Link to="/demand-planning">Open the demand planning tool</Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
