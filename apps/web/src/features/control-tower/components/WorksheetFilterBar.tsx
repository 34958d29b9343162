import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectTrigger, SelectValue } from '@/components/ui/select';

const FILTERS = [
  { id: 'worksheet-company', label: 'Company', placeholder: 'Select company' },
  { id: 'worksheet-business-unit', label: 'Business Unit', placeholder: 'Select business unit' },
  { id: 'worksheet-product-family', label: 'Product Family', placeholder: 'Select product family' },
] as const;

/**
 * Company, Business Unit and Product Family dropdowns of the worksheet (spec §2). They stay
 * disabled, showing their placeholders, until the worksheet has data to offer as options.
 */
export function WorksheetFilterBar() {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {FILTERS.map((filter) => (
        <div key={filter.id} className="flex flex-col gap-2">
          <Label htmlFor={filter.id}>{filter.label}</Label>
          <Select disabled>
            <SelectTrigger id={filter.id}>
              <SelectValue placeholder={filter.placeholder} />
            </SelectTrigger>
            <SelectContent />
          </Select>
        </div>
      ))}
    </div>
  );
}
