import type { FilterOption } from '@ps/domain';
import { ChevronDownIcon, SearchIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useFormatters } from '@/lib/settings/useFormatters';
import { cn } from '@/lib/cn';
import { filterSummary, matchingOptions, toggleVisible, type FilterSummary } from '../utils/filter-summary';
import { useTranslation } from 'react-i18next';

type MultiSelectFilterProps = {
  label: string;
  placeholder: string;
  options: readonly FilterOption[];
  selected: readonly string[];
  onApply: (selected: string[]) => void;
  isDisabled?: boolean;
  /** Stays the same in every language, for tests. */
  testId: string;
};

/**
 * One filter of the filter bar (spec §2): search box, Select All (count), the list, Clear and
 * Apply. Ticks are a draft until Apply, so browsing the list never reloads the grid; Clear removes
 * the filter at once.
 */
export function MultiSelectFilter({
  label,
  placeholder,
  options,
  selected,
  onApply,
  isDisabled,
  testId,
}: MultiSelectFilterProps) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<string[]>([...selected]);
  const [search, setSearch] = useState('');
  const fmt = useFormatters();
  const id = useId();
  const visible = matchingOptions(options, search);
  const visibleValues = visible.map((option) => option.value);
  const isAllSelected = visibleValues.length > 0 && visibleValues.every((value) => draft.includes(value));

  const open = (next: boolean) => {
    if (next) {
      setDraft([...selected]);
      setSearch('');
    }
    setOpen(next);
  };
  const toggle = (value: string) =>
    setDraft((current) =>
      current.includes(value) ? current.filter((v) => v !== value) : [...current, value],
    );
  const toggleAll = () => setDraft((current) => toggleVisible(current, visibleValues));
  const clear = () => {
    setDraft([]);
    onApply([]);
    setOpen(false);
  };
  const summaryText = (summary: FilterSummary) => {
    switch (summary.kind) {
      case 'none':
        return placeholder;
      case 'all':
        return t('planning:filter.all');
      case 'one':
        return summary.value;
      case 'some':
        return t('planning:filter.someSelected', { count: summary.count });
    }
  };
  const apply = () => {
    onApply(draft);
    setOpen(false);
  };

  return (
    <div className="flex min-w-44 flex-col gap-1">
      <span id={`${id}-label`} className="text-xs font-medium text-muted-foreground">
        {label}
      </span>
      <Popover open={isOpen} onOpenChange={open}>
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            className="w-full justify-between font-normal"
            aria-labelledby={`${id}-label`}
            aria-describedby={`${id}-summary`}
            disabled={isDisabled}
            data-testid={testId}
          >
            <span
              id={`${id}-summary`}
              className={cn('truncate', selected.length === 0 && 'text-muted-foreground')}
            >
              {summaryText(filterSummary(selected, options.length))}
            </span>
            <ChevronDownIcon className="opacity-60" />
          </Button>
        </PopoverTrigger>
        <PopoverContent align="start" className="w-72 p-0">
          <div className="border-b border-border p-2">
            <label className="flex items-center gap-2 rounded-md border border-input px-2">
              <SearchIcon className="size-4 text-muted-foreground" aria-hidden />
              <input
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder={t('planning:filter.search', { label: label.toLowerCase() })}
                aria-label={t('planning:filter.searchLabel', { label })}
                className="h-8 w-full bg-transparent text-sm outline-none"
              />
            </label>
          </div>
          <div className="border-b border-border px-3 py-2">
            <label className="flex cursor-pointer items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={isAllSelected}
                onChange={toggleAll}
              />
              {t('planning:filter.selectAll', { total: fmt.number(visible.length) })}
            </label>
          </div>
          <ul
            className="max-h-60 overflow-y-auto px-3 py-1"
            aria-label={t('planning:filter.options', { label })}
          >
            {visible.map((option) => (
              <li key={option.value}>
                <label className="flex cursor-pointer items-center gap-2 py-1 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={draft.includes(option.value)}
                    onChange={() => toggle(option.value)}
                  />
                  <span className="flex-1 truncate">{option.value}</span>
                  <span className="text-xs text-muted-foreground tabular-nums">
                    {fmt.number(option.count)}
                  </span>
                </label>
              </li>
            ))}
            {visible.length === 0 && (
              <li className="py-2 text-sm text-muted-foreground">{t('planning:filter.noMatches')}</li>
            )}
          </ul>
          <div className="flex justify-end gap-2 border-t border-border p-2">
            <Button variant="outline" size="sm" onClick={clear}>
              {t('planning:filter.clear')}
            </Button>
            <Button size="sm" onClick={apply}>
              {t('planning:filter.apply')}
            </Button>
          </div>
        </PopoverContent>
      </Popover>
    </div>
  );
}
