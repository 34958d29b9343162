import { EyeIcon, EyeOffIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { AiHelpBubble } from '@/features/ai-assistant';
import type { ClientContext } from '@/features/auth';
import { ForecastRunControl } from '@/features/forecast-runs';
import { ImportControl } from '@/features/spreadsheet-import';
import { BrandLogo } from '@/components/BrandLogo';
import { ExportMenu } from '@/features/spreadsheet-export';
import type { ExportView } from '@/features/spreadsheet-export';
import { UserMenu } from '@/features/shell';
import { PageHelp } from './PageHelp';
import { PublishCycleControl } from './PublishCycleControl';
import { useTranslation } from 'react-i18next';
import { NotificationBell } from '@/features/notifications';

type DemandPlanningHeaderProps = {
  isFocusView: boolean;
  onFocusViewChange: (isFocusView: boolean) => void;
  exportView: ExportView;
  clientContext: ClientContext;
  total: number;
};

/**
 * The page's own header (spec §2): logo, title, subtitle, help, the admin's forecast run and publish controls,
 * Focus View, import/export group, user menu.
 */
export function DemandPlanningHeader({
  isFocusView,
  onFocusViewChange,
  exportView,
  clientContext,
  total,
}: DemandPlanningHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="flex flex-wrap items-center justify-between gap-4 border-b border-border bg-card px-6 py-3">
      <div className="flex shrink-0 items-center gap-4">
        <BrandLogo isCustomer={false} isCompact />
        <div className="min-w-0">
          <h1 className="text-xl leading-tight font-bold tracking-tight whitespace-nowrap">
            {t('shell:module.demandPlanning')}
          </h1>
          <p className="truncate text-sm text-muted-foreground">{t('planning:header.subtitle')}</p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <PageHelp />
        <AiHelpBubble context="planning-workflow" />
        <ForecastRunControl />
        <PublishCycleControl />
        <Button
          variant={isFocusView ? 'default' : 'outline'}
          size="sm"
          aria-pressed={isFocusView}
          onClick={() => onFocusViewChange(!isFocusView)}
        >
          {isFocusView ? <EyeOffIcon /> : <EyeIcon />}
          {t('planning:header.focusView')}
        </Button>
        <div
          role="group"
          aria-label={t('planning:header.importExport')}
          className="flex items-center rounded-md border border-border p-0.5"
        >
          <ImportControl />
          <ExportMenu view={exportView} clientContext={clientContext} total={total} />
        </div>
        <NotificationBell />
        <UserMenu />
      </div>
    </header>
  );
}
