import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

type SegmentedControlProps<T extends string> = {
  label: string;
  value: T;
  /** Each option's label is a catalogue key. */
  options: ReadonlyArray<{ value: T; labelKey: string }>;
  onChange: (value: T) => void;
  /** Values the option labels interpolate (the currency symbol of "€M"). */
  labelParams?: Record<string, string>;
};

/** A small set of mutually exclusive toggle buttons (Table/Chart, Revenue/Cost, K/M/B of the currency). */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onChange,
  labelParams,
}: SegmentedControlProps<T>) {
  const { t } = useTranslation();
  return (
    <div
      role="group"
      aria-label={label}
      className="inline-flex rounded-md border border-input bg-background p-0.5"
    >
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={cn(
            'rounded-sm px-3 py-1 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring',
            option.value === value
              ? 'bg-primary text-primary-foreground'
              : 'text-muted-foreground hover:bg-accent hover:text-accent-foreground',
          )}
        >
          {t(option.labelKey, labelParams)}
        </button>
      ))}
    </div>
  );
}
