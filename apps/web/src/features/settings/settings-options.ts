import type { UserSettings } from '@ps/domain';

/** One choice of a settings dropdown: the stored value and what the user reads. */
export type SettingOption<T extends string> = { value: T; label: string };

type OptionsOf<K extends keyof UserSettings> = ReadonlyArray<SettingOption<UserSettings[K] & string>>;

export const NUMBER_FORMAT_OPTIONS: OptionsOf<'numberFormat'> = [
  { value: 'us', label: 'US (1,234,567.89)' },
  { value: 'indian', label: 'Indian (12,34,567.89)' },
];

export const DATE_FORMAT_OPTIONS: OptionsOf<'dateFormat'> = [
  { value: 'mm/dd/yyyy', label: 'MM/DD/YYYY' },
  { value: 'dd/mm/yyyy', label: 'DD/MM/YYYY' },
];

export const THEME_OPTIONS: OptionsOf<'theme'> = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export const LANGUAGE_OPTIONS: OptionsOf<'language'> = [
  { value: 'english', label: 'English' },
  { value: 'spanish', label: 'Spanish' },
  { value: 'french', label: 'French' },
  { value: 'german', label: 'German' },
];

export const CURRENCY_OPTIONS: OptionsOf<'currency'> = [
  { value: 'usd', label: 'USD ($)' },
  { value: 'eur', label: 'EUR (€)' },
  { value: 'inr', label: 'INR (₹)' },
  { value: 'gbp', label: 'GBP (£)' },
];

/** Labels match the planning grid's View Level dropdown (category rolls up by product family). */
export const DEFAULT_VIEW_LEVEL_OPTIONS: OptionsOf<'defaultViewLevel'> = [
  { value: 'sku', label: 'Product ID Level' },
  { value: 'category', label: 'Product Family Level' },
  { value: 'business_unit', label: 'Business Unit Level' },
];

export const DEFAULT_DRILL_DOWN_OPTIONS: OptionsOf<'defaultDrillDown'> = [
  { value: 'none', label: 'None (No Time Grouping)' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'quarterly', label: 'Quarterly' },
];

export const EXPORT_FORMAT_OPTIONS: OptionsOf<'exportFormat'> = [
  { value: 'xlsx', label: 'Excel (.xlsx)' },
  { value: 'csv', label: 'CSV (.csv)' },
  { value: 'pdf', label: 'PDF (.pdf)' },
];

/** Spec §9: 30, 60, 120, 240 minutes (default 60). */
export const SESSION_TIMEOUT_CHOICES: ReadonlyArray<SettingOption<string>> = [
  { value: '30', label: '30 minutes' },
  { value: '60', label: '1 hour' },
  { value: '120', label: '2 hours' },
  { value: '240', label: '4 hours' },
];

/** Spec §9: 30, 60, 300, 600 seconds (default 60). */
export const DATA_REFRESH_CHOICES: ReadonlyArray<SettingOption<string>> = [
  { value: '30', label: '30 seconds' },
  { value: '60', label: '1 minute' },
  { value: '300', label: '5 minutes' },
  { value: '600', label: '10 minutes' },
];
