import type { UserSettings } from '@ps/domain';

/** One choice of a settings dropdown: the stored value and the catalogue key of what the user reads. */
export type SettingOption<T extends string> = { value: T; labelKey: string };

type OptionsOf<K extends keyof UserSettings> = ReadonlyArray<SettingOption<UserSettings[K] & string>>;

export const NUMBER_FORMAT_OPTIONS: OptionsOf<'numberFormat'> = [
  { value: 'us', labelKey: 'settings:option.numberFormat.us' },
  { value: 'indian', labelKey: 'settings:option.numberFormat.indian' },
];

export const DATE_FORMAT_OPTIONS: OptionsOf<'dateFormat'> = [
  { value: 'mm/dd/yyyy', labelKey: 'settings:option.dateFormat.mdy' },
  { value: 'dd/mm/yyyy', labelKey: 'settings:option.dateFormat.dmy' },
];

export const THEME_OPTIONS: OptionsOf<'theme'> = [
  { value: 'light', labelKey: 'settings:option.theme.light' },
  { value: 'dark', labelKey: 'settings:option.theme.dark' },
];

export const LANGUAGE_OPTIONS: OptionsOf<'language'> = [
  { value: 'english', labelKey: 'settings:option.language.english' },
  { value: 'spanish', labelKey: 'settings:option.language.spanish' },
  { value: 'french', labelKey: 'settings:option.language.french' },
  { value: 'german', labelKey: 'settings:option.language.german' },
];

export const CURRENCY_OPTIONS: OptionsOf<'currency'> = [
  { value: 'usd', labelKey: 'settings:option.currency.usd' },
  { value: 'eur', labelKey: 'settings:option.currency.eur' },
  { value: 'inr', labelKey: 'settings:option.currency.inr' },
  { value: 'gbp', labelKey: 'settings:option.currency.gbp' },
];

/** Labels match the planning grid's View Level dropdown (category rolls up by product family). */
export const DEFAULT_VIEW_LEVEL_OPTIONS: OptionsOf<'defaultViewLevel'> = [
  { value: 'sku', labelKey: 'settings:option.viewLevel.sku' },
  { value: 'category', labelKey: 'settings:option.viewLevel.category' },
  { value: 'business_unit', labelKey: 'settings:option.viewLevel.businessUnit' },
];

export const DEFAULT_DRILL_DOWN_OPTIONS: OptionsOf<'defaultDrillDown'> = [
  { value: 'none', labelKey: 'settings:option.drillDown.none' },
  { value: 'weekly', labelKey: 'settings:option.drillDown.weekly' },
  { value: 'monthly', labelKey: 'settings:option.drillDown.monthly' },
  { value: 'quarterly', labelKey: 'settings:option.drillDown.quarterly' },
];

/** No PDF: a PDF of millions of rows is not a planner's file; see docs/spreadsheet-export.md. */
export const EXPORT_FORMAT_OPTIONS: OptionsOf<'exportFormat'> = [
  { value: 'xlsx', labelKey: 'settings:option.export.xlsx' },
  { value: 'csv', labelKey: 'settings:option.export.csv' },
];

/** Spec §9: 30, 60, 120, 240 minutes (default 60). */
export const SESSION_TIMEOUT_CHOICES: OptionsOf<'sessionTimeout'> = [
  { value: '30', labelKey: 'settings:option.sessionTimeout.30' },
  { value: '60', labelKey: 'settings:option.sessionTimeout.60' },
  { value: '120', labelKey: 'settings:option.sessionTimeout.120' },
  { value: '240', labelKey: 'settings:option.sessionTimeout.240' },
];

/** Spec §9: 30, 60, 300, 600 seconds (default 60). */
export const DATA_REFRESH_CHOICES: OptionsOf<'dataRefreshInterval'> = [
  { value: '30', labelKey: 'settings:option.dataRefresh.30' },
  { value: '60', labelKey: 'settings:option.dataRefresh.60' },
  { value: '300', labelKey: 'settings:option.dataRefresh.300' },
  { value: '600', labelKey: 'settings:option.dataRefresh.600' },
];
