import { AiHelpBubble } from '@/features/ai-assistant';
import {
  DRILL_DOWNS,
  VIEW_LEVELS,
  type DrillDown,
  type FilterOptions,
  type HelpContext,
  type ViewLevel,
} from '@ps/domain';
import { SearchIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { DRILL_DOWN_LABEL_KEYS, VIEW_LEVEL_LABEL_KEYS } from '../utils/view-level';
import { MultiSelectFilter } from './MultiSelectFilter';
import { useTranslation } from 'react-i18next';

export type FilterSelection = { bu: string[]; pf: string[]; region: string[]; search: string };

type FilterBarProps = {
  options: FilterOptions | undefined;
  selection: FilterSelection;
  onSelectionChange: (selection: FilterSelection) => void;
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  onViewLevelChange: (viewLevel: ViewLevel) => void;
  onDrillDownChange: (drillDown: DrillDown) => void;
  /** The view an option would open, hovered or focused (read ahead); null once the list closes. */
  onViewPreview?: (change: { viewLevel?: ViewLevel; drillDown?: DrillDown } | null) => void;
  /** In edit mode the view stays on original records, so the roll-up dropdowns are locked. */
  isViewLocked: boolean;
};

/** Filter bar of the real-data grid (spec §2): three multi-selects, a Product ID search, View Level and Drill Down. */
export function FilterBar({
  options,
  selection,
  onSelectionChange,
  viewLevel,
  drillDown,
  onViewLevelChange,
  onDrillDownChange,
  onViewPreview,
  isViewLocked,
}: FilterBarProps) {
  const { t } = useTranslation();
  const [searchText, setSearchText] = useState(selection.search);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    onSelectionChange({ ...selection, search: searchText.trim() });
  };
  const lockedHint = isViewLocked ? t('planning:filter.lockedHint') : undefined;

  return (
    <div className="flex flex-wrap items-end gap-3">
      <AiHelpBubble context="category-selection" />
      <MultiSelectFilter
        label={t('planning:filter.businessUnit')}
        placeholder={t('planning:filter.selectBusinessUnits')}
        testId="filter-Business Unit"
        options={options?.businessUnits ?? []}
        selected={selection.bu}
        onApply={(bu) => onSelectionChange({ ...selection, bu })}
      />
      <MultiSelectFilter
        label={t('planning:filter.productFamily')}
        placeholder={t('planning:filter.selectProductFamilies')}
        testId="filter-Product Family"
        options={options?.productFamilies ?? []}
        selected={selection.pf}
        onApply={(pf) => onSelectionChange({ ...selection, pf })}
      />
      <MultiSelectFilter
        label={t('planning:filter.region')}
        placeholder={t('planning:filter.selectRegions')}
        testId="filter-Region"
        options={options?.regions ?? []}
        selected={selection.region}
        onApply={(region) => onSelectionChange({ ...selection, region })}
      />
      <form className="flex min-w-48 flex-col gap-1" onSubmit={submitSearch} role="search">
        <label htmlFor="dp-search" className="text-xs font-medium text-muted-foreground">
          {t('planning:filter.productId')}
        </label>
        <div className="flex h-9 items-center gap-2 rounded-md border border-input bg-background px-2">
          <SearchIcon className="size-4 text-muted-foreground" aria-hidden />
          <input
            id="dp-search"
            type="search"
            value={searchText}
            maxLength={100}
            onChange={(event) => setSearchText(event.target.value)}
            onBlur={() =>
              searchText.trim() !== selection.search &&
              onSelectionChange({ ...selection, search: searchText.trim() })
            }
            placeholder={t('planning:filter.searchPid')}
            className="w-full bg-transparent text-sm outline-none"
          />
        </div>
      </form>
      <div className="flex min-w-56 flex-col gap-1" title={lockedHint}>
        <LabelWithHelp
          htmlFor="dp-view-level"
          label={t('planning:filter.viewLevel')}
          context="business-unit-planning"
        />
        <Select
          value={viewLevel}
          onValueChange={(value) => onViewLevelChange(value as ViewLevel)}
          onOpenChange={(isOpen) => !isOpen && onViewPreview?.(null)}
          disabled={isViewLocked}
        >
          <SelectTrigger id="dp-view-level" aria-label={t('planning:filter.viewLevel')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {VIEW_LEVELS.map((level) => (
              <SelectItem key={level} value={level} onFocus={() => onViewPreview?.({ viewLevel: level })}>
                {t(VIEW_LEVEL_LABEL_KEYS[level])}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex min-w-52 flex-col gap-1" title={lockedHint}>
        <LabelWithHelp
          htmlFor="dp-drill-down"
          label={t('planning:filter.drillDown')}
          context="time-drill-down"
        />
        <Select
          value={drillDown}
          onValueChange={(value) => onDrillDownChange(value as DrillDown)}
          onOpenChange={(isOpen) => !isOpen && onViewPreview?.(null)}
          disabled={isViewLocked}
        >
          <SelectTrigger id="dp-drill-down" aria-label={t('planning:filter.drillDown')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {DRILL_DOWNS.map((drill) => (
              <SelectItem key={drill} value={drill} onFocus={() => onViewPreview?.({ drillDown: drill })}>
                {t(DRILL_DOWN_LABEL_KEYS[drill])}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}

/** A select's label with the AI help bubble of what the select controls. */
function LabelWithHelp({
  htmlFor,
  label,
  context,
}: {
  htmlFor: string;
  label: string;
  context: HelpContext;
}) {
  return (
    <div className="flex items-center gap-1">
      <label htmlFor={htmlFor} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <AiHelpBubble context={context} />
    </div>
  );
}
