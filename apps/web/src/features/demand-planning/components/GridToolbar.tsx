import { AiHelpBubble } from '@/features/ai-assistant';
import {
  DownloadIcon,
  LoaderCircleIcon,
  PencilIcon,
  RefreshCwIcon,
  SaveIcon,
  Undo2Icon,
  XIcon,
} from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { useTranslation } from 'react-i18next';

type GridToolbarProps = {
  isEditMode: boolean;
  changeCount: number;
  isSaving: boolean;
  isRefreshing: boolean;
  isExporting: boolean;
  canExport: boolean;
  isAutoSave: boolean;
  onAutoSaveChange: (isAutoSave: boolean) => void;
  onRefresh: () => void;
  onEnterEditMode: () => void;
  onSave: () => void;
  onDiscard: () => void;
  onExitEditMode: () => void;
  onExport: () => void;
};

/** Buttons of the grid (spec §2): Refresh, Edit Mode, Save Changes (n), Discard, Exit Edit, Export CSV. */
export function GridToolbar(props: GridToolbarProps) {
  const { isEditMode, changeCount, isSaving } = props;
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="outline" size="sm" onClick={props.onRefresh} disabled={props.isRefreshing || isSaving}>
        <RefreshCwIcon className={props.isRefreshing ? 'animate-spin' : undefined} />
        {t('planning:toolbar.refresh')}
      </Button>
      <AiHelpBubble context={isEditMode ? 'forecast-override' : 'data-aggregation'} />
      {isEditMode ? (
        <>
          <Button size="sm" onClick={props.onSave} disabled={isSaving || changeCount === 0}>
            {isSaving ? <LoaderCircleIcon className="animate-spin" /> : <SaveIcon />}
            {t('planning:toolbar.save', { changes: changeCount })}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={props.onDiscard}
            disabled={isSaving || changeCount === 0}
          >
            <Undo2Icon />
            {t('planning:toolbar.discard')}
          </Button>
          <Button variant="outline" size="sm" onClick={props.onExitEditMode} disabled={isSaving}>
            <XIcon />
            {t('planning:toolbar.exitEdit')}
          </Button>
          <label className="flex items-center gap-2 px-1 text-sm text-muted-foreground">
            <Switch
              checked={props.isAutoSave}
              onCheckedChange={props.onAutoSaveChange}
              aria-label={t('planning:toolbar.autoSave')}
            />
            {t('planning:toolbar.autoSave')}
          </label>
        </>
      ) : (
        <Button variant="outline" size="sm" onClick={props.onEnterEditMode}>
          <PencilIcon />
          {t('planning:toolbar.editMode')}
        </Button>
      )}
      <Button
        variant="outline"
        size="sm"
        onClick={props.onExport}
        disabled={!props.canExport || props.isExporting}
        title={props.canExport ? undefined : t('planning:toolbar.nothingToExport')}
      >
        {props.isExporting ? <LoaderCircleIcon className="animate-spin" /> : <DownloadIcon />}
        {t('planning:toolbar.exportCsv')}
      </Button>
    </div>
  );
}
