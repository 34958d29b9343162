import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import type { SettingOption } from '@/lib/settings/settings-options';

type SelectSettingProps<T extends string> = {
  id: string;
  label: string;
  value: T;
  options: ReadonlyArray<SettingOption<T>>;
  onChange: (value: T) => void;
};

export function SelectSetting<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: SelectSettingProps<T>) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={value}
        onValueChange={(next) => {
          const option = options.find((o) => o.value === next);
          if (option) onChange(option.value);
        }}
      >
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {t(option.labelKey)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

type SwitchSettingProps = {
  id: string;
  label: string;
  description: string;
  isChecked: boolean;
  onChange: (isChecked: boolean) => void;
};

export function SwitchSetting({ id, label, description, isChecked, onChange }: SwitchSettingProps) {
  return (
    <div className="flex items-center justify-between gap-4">
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} checked={isChecked} onCheckedChange={onChange} aria-describedby={`${id}-description`} />
    </div>
  );
}
