import {
  ChevronDownIcon,
  DownloadIcon,
  FileSpreadsheetIcon,
  FileTextIcon,
  LoaderCircleIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { ClientContext } from '@/features/auth';
import type { ExportView } from './spreadsheet-export.api';
import { useSpreadsheetExport } from './useSpreadsheetExport';

type ExportMenuProps = {
  view: ExportView;
  clientContext: ClientContext;
  /** Rows the grid holds with the current filters; exports of the view are disabled at 0 (spec §4). */
  total: number;
};

/** The Export menu of the import/export group (spec §2): Quick Export, Detailed Export, Template Download. */
export function ExportMenu({ view, clientContext, total }: ExportMenuProps) {
  const { t } = useTranslation();
  const { running, format, run } = useSpreadsheetExport(view, clientContext, total);
  const hasRecords = total > 0;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" disabled={running !== null} aria-busy={running !== null}>
          {running ? <LoaderCircleIcon className="animate-spin" /> : <DownloadIcon />}
          {running ? t('export:menu.exporting') : t('export:menu.export')}
          <ChevronDownIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuItem disabled={!hasRecords} onSelect={() => void run('quick')}>
          {format === 'csv' ? <FileTextIcon /> : <FileSpreadsheetIcon />}
          <span className="flex flex-col">
            <span>{t('export:menu.quick')}</span>
            <span className="text-xs text-muted-foreground">
              {format === 'csv' ? t('export:menu.quickCsv') : t('export:menu.quickXlsx')}
            </span>
          </span>
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!hasRecords} onSelect={() => void run('detailed')}>
          <FileSpreadsheetIcon />
          <span className="flex flex-col">
            <span>{t('export:menu.detailed')}</span>
            <span className="text-xs text-muted-foreground">{t('export:menu.detailedHint')}</span>
          </span>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void run('template')}>
          <DownloadIcon />
          <span className="flex flex-col">
            <span>{t('export:menu.template')}</span>
            <span className="text-xs text-muted-foreground">{t('export:menu.templateHint')}</span>
          </span>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
