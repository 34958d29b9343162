import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

export type SelectOption = { value: string; label: string };

type LabelledSelectProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  /** Size classes of the trigger, e.g. 'w-44', or 'h-8 w-44' in the compact network forms. */
  triggerClass: string;
  placeholder?: string;
  testId?: string;
};

/** A select with its caption above it, as the optichain filter and scenario forms lay them out. */
export function LabelledSelect({
  label,
  value,
  onChange,
  options,
  triggerClass,
  placeholder,
  testId,
}: LabelledSelectProps) {
  return (
    <label className="flex flex-col gap-1 text-xs text-muted-foreground">
      {label}
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger className={triggerClass} aria-label={label} data-testid={testId}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </label>
  );
}

/** Options whose value is their label (families, periods, regions), after an optional 'all' entry. */
export const plainOptions = (values: readonly string[], all?: string): SelectOption[] => [
  ...(all === undefined ? [] : [{ value: 'all', label: all }]),
  ...values.map((value) => ({ value, label: value })),
];
