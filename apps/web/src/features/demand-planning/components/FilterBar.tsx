import { DRILL_DOWNS, VIEW_LEVELS, type DrillDown, type FilterOptions, type ViewLevel } from '@ps/domain';
import { SearchIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { DRILL_DOWN_LABELS, VIEW_LEVEL_LABELS } from '../utils/view-level';
import { MultiSelectFilter } from './MultiSelectFilter';

export type FilterSelection = { bu: string[]; pf: string[]; region: string[]; search: string };

type FilterBarProps = {
  options: FilterOptions | undefined;
  selection: FilterSelection;
  onSelectionChange: (selection: FilterSelection) => void;
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  onViewLevelChange: (viewLevel: ViewLevel) => void;
  onDrillDownChange: (drillDown: DrillDown) => void;
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
  isViewLocked,
}: FilterBarProps) {
  const [searchText, setSearchText] = useState(selection.search);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    onSelectionChange({ ...selection, search: searchText.trim() });
  };
  const lockedHint = isViewLocked ? 'Exit edit mode to change the view' : undefined;

  return (
    <div className="flex flex-wrap items-end gap-3">
      <MultiSelectFilter
        label="Business Unit"
        placeholder="Select business units..."
        options={options?.businessUnits ?? []}
        selected={selection.bu}
        onApply={(bu) => onSelectionChange({ ...selection, bu })}
      />
      <MultiSelectFilter
        label="Product Family"
        placeholder="Select product families..."
        options={options?.productFamilies ?? []}
        selected={selection.pf}
        onApply={(pf) => onSelectionChange({ ...selection, pf })}
      />
      <MultiSelectFilter
        label="Region"
        placeholder="Select regions..."
        options={options?.regions ?? []}
        selected={selection.region}
        onApply={(region) => onSelectionChange({ ...selection, region })}
      />
      <form className="flex min-w-48 flex-col gap-1" onSubmit={submitSearch} role="search">
        <label htmlFor="dp-search" className="text-xs font-medium text-muted-foreground">
          Product ID
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
            placeholder="Search PID (Enter)"
            className="w-full bg-transparent text-sm outline-none"
          />
        </div>
      </form>
      <div className="flex min-w-56 flex-col gap-1" title={lockedHint}>
        <label htmlFor="dp-view-level" className="text-xs font-medium text-muted-foreground">
          View Level
        </label>
        <Select
          value={viewLevel}
          onValueChange={(value) => onViewLevelChange(value as ViewLevel)}
          disabled={isViewLocked}
        >
          <SelectTrigger id="dp-view-level" aria-label="View Level">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {VIEW_LEVELS.map((level) => (
              <SelectItem key={level} value={level}>
                {VIEW_LEVEL_LABELS[level]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex min-w-52 flex-col gap-1" title={lockedHint}>
        <label htmlFor="dp-drill-down" className="text-xs font-medium text-muted-foreground">
          Drill Down
        </label>
        <Select
          value={drillDown}
          onValueChange={(value) => onDrillDownChange(value as DrillDown)}
          disabled={isViewLocked}
        >
          <SelectTrigger id="dp-drill-down" aria-label="Drill Down">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {DRILL_DOWNS.map((drill) => (
              <SelectItem key={drill} value={drill}>
                {DRILL_DOWN_LABELS[drill]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}
