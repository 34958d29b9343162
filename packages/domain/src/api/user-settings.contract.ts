import { z } from 'zod';
import { DATA_REFRESH_OPTIONS, SESSION_TIMEOUT_OPTIONS, type UserSettings } from '../user-settings';
import { defineEndpoint } from './endpoint';

/** The settings a user saves (spec §3), checked strictly: an unknown value is refused by name. */
export const ZUserSettings = z.strictObject({
  numberFormat: z.enum(['us', 'indian']),
  dateFormat: z.enum(['mm/dd/yyyy', 'dd/mm/yyyy']),
  theme: z.enum(['light', 'dark']),
  language: z.enum(['english', 'spanish', 'french', 'german']),
  currency: z.enum(['usd', 'eur', 'inr', 'gbp']),
  autoSave: z.boolean(),
  emailNotifications: z.boolean(),
  realTimeUpdates: z.boolean(),
  compactView: z.boolean(),
  defaultViewLevel: z.enum(['sku', 'category', 'business_unit']),
  defaultDrillDown: z.enum(['none', 'quarterly', 'monthly', 'weekly']),
  exportFormat: z.enum(['xlsx', 'csv', 'pdf']),
  sessionTimeout: z.enum(SESSION_TIMEOUT_OPTIONS),
  dataRefreshInterval: z.enum(DATA_REFRESH_OPTIONS),
}) satisfies z.ZodType<UserSettings>;

export const ZStoredUserSettings = z.strictObject({
  /** Null until the user first saves settings: the browser's cache and defaults stand. */
  settings: ZUserSettings.nullable(),
  updatedAt: z.iso.datetime().nullable(),
});
export type StoredUserSettings = z.infer<typeof ZStoredUserSettings>;

/** Settings that follow the user from browser to browser. */
export const userSettingsEndpoints = {
  read: defineEndpoint({
    method: 'GET',
    path: '/api/user-settings',
    access: 'account',
    summary: "The caller's saved settings, or null before the first save",
    response: { data: ZStoredUserSettings },
  }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/api/user-settings',
    access: 'account',
    summary: "Saves the caller's settings (every field, spec §3 values)",
    body: ZUserSettings,
    response: { data: ZStoredUserSettings },
  }),
};
