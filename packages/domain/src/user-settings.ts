/** The user's preferences (spec §3, browser key userSettings) with the spec's defaults. */
export type UserSettings = {
  numberFormat: 'us' | 'indian';
  dateFormat: 'mm/dd/yyyy' | 'dd/mm/yyyy';
  theme: 'light' | 'dark';
  language: 'english' | 'spanish' | 'french' | 'german';
  currency: 'usd' | 'eur' | 'inr' | 'gbp';
  autoSave: boolean;
  emailNotifications: boolean;
  realTimeUpdates: boolean;
  compactView: boolean;
  defaultViewLevel: 'sku' | 'category' | 'business_unit';
  defaultDrillDown: 'none' | 'quarterly' | 'monthly' | 'weekly';
  exportFormat: 'xlsx' | 'csv' | 'pdf';
  /** Minutes, kept as text as the spec stores it: one of 30, 60, 120, 240. */
  sessionTimeout: (typeof SESSION_TIMEOUT_OPTIONS)[number];
  /** Seconds, as text: one of 30, 60, 300, 600. */
  dataRefreshInterval: (typeof DATA_REFRESH_OPTIONS)[number];
};

export const DEFAULT_USER_SETTINGS: UserSettings = {
  numberFormat: 'us',
  dateFormat: 'mm/dd/yyyy',
  theme: 'light',
  language: 'english',
  currency: 'usd',
  autoSave: false,
  emailNotifications: true,
  realTimeUpdates: true,
  compactView: false,
  defaultViewLevel: 'category',
  defaultDrillDown: 'none',
  exportFormat: 'xlsx',
  sessionTimeout: '60',
  dataRefreshInterval: '60',
};

export const SESSION_TIMEOUT_OPTIONS = ['30', '60', '120', '240'] as const;
export const DATA_REFRESH_OPTIONS = ['30', '60', '300', '600'] as const;
