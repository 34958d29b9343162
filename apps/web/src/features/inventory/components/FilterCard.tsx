import type { InventoryFilters } from '@ps/domain';
import { SearchIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

type Options = { categories: string[]; businessUnits: string[]; regions: string[]; sites: string[] };
type FilterKey = 'category' | 'businessUnit' | 'region' | 'site';

/** Radix Select has no empty value, so "all" is a sentinel no real name can take. */
const ALL = '__all__';

/**
 * Category, Business Unit, Region and Site, each with an all option, and Clear All (spec §2); and
 * a SKU search (part of a SKU, on Enter), since a planner looks for one product among thousands.
 */
export function FilterCard({
  options,
  filters,
  onChange,
  onClear,
}: {
  options: Options | undefined;
  filters: InventoryFilters;
  onChange: (key: FilterKey | 'sku' | 'search', value: string | null) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const fields: Array<{ key: FilterKey; label: string; all: string; values: string[] }> = [
    {
      key: 'category',
      label: t('inventory:filters.category'),
      all: t('inventory:filters.allCategories'),
      values: options?.categories ?? [],
    },
    {
      key: 'businessUnit',
      label: t('inventory:filters.businessUnit'),
      all: t('inventory:filters.allBusinessUnits'),
      values: options?.businessUnits ?? [],
    },
    {
      key: 'region',
      label: t('inventory:filters.region'),
      all: t('inventory:filters.allRegions'),
      values: options?.regions ?? [],
    },
    {
      key: 'site',
      label: t('inventory:filters.site'),
      all: t('inventory:filters.allSites'),
      values: options?.sites ?? [],
    },
  ];
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2 pb-2">
        <CardTitle className="text-base">{t('inventory:filters.title')}</CardTitle>
        <div className="flex items-center gap-2">
          {filters.sku && (
            <Button variant="secondary" size="sm" onClick={() => onChange('sku', null)}>
              {t('inventory:filters.skuOnly', { sku: filters.sku })}
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={onClear}>
            {t('inventory:filters.clearAll')}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <form
          className="flex flex-col gap-2"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            const value = new FormData(event.currentTarget).get('search');
            const text = typeof value === 'string' ? value.trim() : '';
            onChange('search', text || null);
          }}
        >
          <Label htmlFor="inventory-filter-search">{t('inventory:filters.skuSearch')}</Label>
          <div className="flex h-9 items-center gap-2 rounded-md border border-input bg-background px-2">
            <SearchIcon className="size-4 text-muted-foreground" aria-hidden />
            <input
              // A new key when the filter changes elsewhere (Clear All), so the box shows it.
              key={filters.search ?? ''}
              id="inventory-filter-search"
              name="search"
              type="search"
              maxLength={100}
              defaultValue={filters.search ?? ''}
              placeholder={t('inventory:filters.skuSearchPlaceholder')}
              className="w-full bg-transparent text-sm outline-none"
            />
          </div>
        </form>
        {fields.map((field) => (
          <div key={field.key} className="flex flex-col gap-2">
            <Label htmlFor={`inventory-filter-${field.key}`}>{field.label}</Label>
            <Select
              value={filters[field.key] ?? ALL}
              onValueChange={(value) => onChange(field.key, value === ALL ? null : value)}
            >
              <SelectTrigger id={`inventory-filter-${field.key}`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>{field.all}</SelectItem>
                {field.values.map((value) => (
                  <SelectItem key={value} value={value}>
                    {value}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
