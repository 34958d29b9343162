import type { InventoryFilters } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

type Options = { categories: string[]; businessUnits: string[]; regions: string[]; sites: string[] };
type FilterKey = 'category' | 'businessUnit' | 'region' | 'site';

/** Radix Select has no empty value, so "all" is a sentinel no real name can take. */
const ALL = '__all__';

/** Category, Business Unit, Region and Site, each with an all option, and Clear All (spec §2). */
export function FilterCard({
  options,
  filters,
  onChange,
  onClear,
}: {
  options: Options | undefined;
  filters: InventoryFilters;
  onChange: (key: FilterKey | 'sku', value: string | null) => void;
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
      <CardContent className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
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
