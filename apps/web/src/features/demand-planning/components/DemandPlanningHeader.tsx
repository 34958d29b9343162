import { DownloadIcon, EyeIcon, EyeOffIcon, LoaderCircleIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ForecastRunControl } from '@/features/forecast-runs/ForecastRunControl';
import { ImportControl } from '@/features/spreadsheet-import/ImportDialog';
import { BrandLogo } from '@/features/shell/components/BrandLogo';
import { UserMenu } from '@/features/shell/components/UserMenu';
import { PageHelp } from './PageHelp';
import { PublishCycleControl } from './PublishCycleControl';
import { useTranslation } from 'react-i18next';

type DemandPlanningHeaderProps = {
  isFocusView: boolean;
  onFocusViewChange: (isFocusView: boolean) => void;
  onExportCsv: () => void;
  isExporting: boolean;
  canExport: boolean;
};

/**
 * The page's own header (spec §2): logo, title, subtitle, help, the admin's forecast run and publish controls,
 * Focus View, import/export group, user menu.
 */
export function DemandPlanningHeader({
  isFocusView,
  onFocusViewChange,
  onExportCsv,
  isExporting,
  canExport,
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
          <Button variant="ghost" size="sm" onClick={onExportCsv} disabled={!canExport || isExporting}>
            {isExporting ? <LoaderCircleIcon className="animate-spin" /> : <DownloadIcon />}
            {t('planning:header.quickExport')}
          </Button>
        </div>
        <UserMenu />
      </div>
    </header>
  );
}
