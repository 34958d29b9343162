import { ArrowLeftIcon, BellIcon, CheckCircle2Icon, ClipboardCheckIcon, RocketIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeading } from '@/components/PageHeading';
import { MODULES } from '@/features/shell';
import { useTranslation } from 'react-i18next';

/** What the quality module is planned to bring. */
const PLANNED_FEATURES = [
  'quality:scorecards',
  'quality:defects',
  'quality:spc',
  'quality:rootCause',
  'quality:capa',
] as const;

/** Quality control placeholder (spec §2): disabled module, shown as coming soon. */
export default function QualityControlPage() {
  const { quality } = MODULES;
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6 p-6">
      <Button variant="ghost" asChild className="self-start">
        <Link to="/demand-planning">
          <ArrowLeftIcon aria-hidden /> {t('quality:back')}
        </Link>
      </Button>
      <PageHeading
        title={t(quality.nameKey)}
        subtitle={t('quality:subtitle')}
        badges={
          <>
            <Badge variant="warning">{t('quality:comingSoon')}</Badge>
            <Badge variant="outline">{`v${quality.version}`}</Badge>
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ClipboardCheckIcon className="size-5 text-primary" aria-hidden /> {t('quality:whatToExpect')}
            </CardTitle>
            <CardDescription>{t('quality:plannedFeatures')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-3">
              {PLANNED_FEATURES.map((feature) => (
                <li key={feature} className="flex gap-3 text-sm">
                  <CheckCircle2Icon className="size-5 shrink-0 text-success" aria-hidden />
                  {t(feature)}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <BellIcon className="size-5 text-primary" aria-hidden /> {t('quality:stayUpdated')}
              </CardTitle>
              <CardDescription>
                {t('quality:expectedRelease', { release: quality.expectedRelease })}
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              <Button disabled className="w-full">
                {t('quality:notifyMe')}
              </Button>
              <p className="text-xs text-muted-foreground">{t('quality:note')}</p>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <RocketIcon className="size-5 text-primary" aria-hidden /> {t('quality:availableNow')}
              </CardTitle>
              <CardDescription>
                {t('quality:availableNowText', { tool: t(MODULES.demandPlanning.nameKey) })}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button variant="outline" asChild className="w-full">
                <Link to="/demand-planning">{t('quality:openDemandPlanning')}</Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
