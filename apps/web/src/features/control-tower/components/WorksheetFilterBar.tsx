import type { WorksheetFilters } from '@ps/domain';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

export type WorksheetSelection = { company: string; businessUnit: string; productFamily: string };

/** The first business unit and family under a company (spec §2: each filter defaults to its first option). */
export function firstSelection(
  filters: WorksheetFilters,
  company?: string,
  businessUnit?: string,
): WorksheetSelection {
  const companyId = company ?? filters.companies[0]?.id ?? '';
  const units = filters.businessUnits.filter((b) => b.companyId === companyId);
  const unit = businessUnit ?? units[0]?.id ?? '';
  const family = filters.productFamilies.find((f) => f.companyId === companyId && f.businessUnitId === unit);
  return { company: companyId, businessUnit: unit, productFamily: family?.id ?? '' };
}

type Props = {
  filters: WorksheetFilters | undefined;
  value: WorksheetSelection | null;
  onChange: (selection: WorksheetSelection) => void;
};

/**
 * Company, Business Unit ('name (code)') and Product Family dropdowns of the worksheet (spec §2),
 * filled with what the user may see; a change further up selects the first option below it.
 */
export function WorksheetFilterBar({ filters, value, onChange }: Props) {
  const { t } = useTranslation();
  const units = filters?.businessUnits.filter((b) => b.companyId === value?.company) ?? [];
  const families =
    filters?.productFamilies.filter(
      (f) => f.companyId === value?.company && f.businessUnitId === value?.businessUnit,
    ) ?? [];
  const disabled = !filters || !value;
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="flex flex-col gap-2">
        <Label htmlFor="worksheet-company">{t('controlTower:filter.company')}</Label>
        <Select
          disabled={disabled}
          value={value?.company ?? ''}
          onValueChange={(company) => filters && onChange(firstSelection(filters, company))}
        >
          <SelectTrigger id="worksheet-company">
            <SelectValue placeholder={t('controlTower:filter.selectCompany')} />
          </SelectTrigger>
          <SelectContent>
            {filters?.companies.map((c) => (
              <SelectItem key={c.id} value={c.id}>
                {c.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="worksheet-business-unit">{t('controlTower:filter.businessUnit')}</Label>
        <Select
          disabled={disabled}
          value={value?.businessUnit ?? ''}
          onValueChange={(unit) => filters && value && onChange(firstSelection(filters, value.company, unit))}
        >
          <SelectTrigger id="worksheet-business-unit">
            <SelectValue placeholder={t('controlTower:filter.selectBusinessUnit')} />
          </SelectTrigger>
          <SelectContent>
            {units.map((b) => (
              <SelectItem key={b.id} value={b.id}>
                {t('controlTower:filter.businessUnitOption', { name: b.name, code: b.code })}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="worksheet-product-family">{t('controlTower:filter.productFamily')}</Label>
        <Select
          disabled={disabled}
          value={value?.productFamily ?? ''}
          onValueChange={(productFamily) => value && onChange({ ...value, productFamily })}
        >
          <SelectTrigger id="worksheet-product-family">
            <SelectValue placeholder={t('controlTower:filter.selectProductFamily')} />
          </SelectTrigger>
          <SelectContent>
            {families.map((f) => (
              <SelectItem key={f.id} value={f.id}>
                {f.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}
