import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectTrigger, SelectValue } from '@/components/ui/select';

const FILTERS = [
  {
    id: 'worksheet-company',
    labelKey: 'controlTower:filter.company',
    placeholderKey: 'controlTower:filter.selectCompany',
  },
  {
    id: 'worksheet-business-unit',
    labelKey: 'controlTower:filter.businessUnit',
    placeholderKey: 'controlTower:filter.selectBusinessUnit',
  },
  {
    id: 'worksheet-product-family',
    labelKey: 'controlTower:filter.productFamily',
    placeholderKey: 'controlTower:filter.selectProductFamily',
  },
] as const;

/**
 * Company, Business Unit and Product Family dropdowns of the worksheet (spec §2). They stay
 * disabled, showing their placeholders, until the worksheet has data to offer as options.
 */
export function WorksheetFilterBar() {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {FILTERS.map((filter) => (
        <div key={filter.id} className="flex flex-col gap-2">
          <Label htmlFor={filter.id}>{t(filter.labelKey)}</Label>
          <Select disabled>
            <SelectTrigger id={filter.id}>
              <SelectValue placeholder={t(filter.placeholderKey)} />
            </SelectTrigger>
            <SelectContent />
          </Select>
        </div>
      ))}
    </div>
  );
}
