import type { UserSettings } from '@ps/domain';
import { LogOutIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { hasGroup, useAuth } from '@/features/auth';
import { applyLanguage, i18next } from '@/i18n/i18n';
import { languageOfSetting } from '@/i18n/languages';
import {
  CURRENCY_OPTIONS,
  DATA_REFRESH_CHOICES,
  DATE_FORMAT_OPTIONS,
  DEFAULT_DRILL_DOWN_OPTIONS,
  DEFAULT_VIEW_LEVEL_OPTIONS,
  EXPORT_FORMAT_OPTIONS,
  LANGUAGE_OPTIONS,
  NUMBER_FORMAT_OPTIONS,
  SESSION_TIMEOUT_CHOICES,
  THEME_OPTIONS,
} from '@/lib/settings/settings-options';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { SelectSetting, SwitchSetting } from './SettingField';
import { useNotifications } from '@/features/notifications';
import { usePlanningPolicy, useSavePlanningPolicy } from '@/features/planning-policy';
import { Link } from 'react-router';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-4 rounded-lg border border-border p-4">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** The settings form; mounted afresh each time the dialog opens, so it starts from the saved values. */
function SettingsForm({ onDone }: { onDone: () => void }) {
  const { settings, saveSettings } = useUserSettings();
  const { signOut, user } = useAuth();
  const isAdmin = hasGroup(user, 'admin');
  const [draft, setDraft] = useState<UserSettings>(settings);
  const mail = useNotifications();
  const policy = usePlanningPolicy();
  const savePolicy = useSavePlanningPolicy();
  // Null until the admin touches it, so a policy still loading is never saved back as "off".
  const [requireReason, setRequireReason] = useState<boolean | null>(null);
  const { t } = useTranslation();
  const set =
    <K extends keyof UserSettings>(key: K) =>
    (value: UserSettings[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  // Spec §5: settings save with no validation.
  const save = () => {
    saveSettings(draft);
    if (isAdmin && requireReason !== null && requireReason !== policy.requireOverrideReason)
      savePolicy.mutate({ requireOverrideReason: requireReason });
    // Said in the language just chosen, whose catalogue may still be on its way the first time.
    void applyLanguage(languageOfSetting(draft.language)).then(() =>
      toast({
        title: i18next.t('settings:saved.title'),
        description: i18next.t('settings:saved.description'),
      }),
    );
    onDone();
  };

  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <Section title={t('settings:section.appearance')}>
          <SelectSetting
            id="setting-theme"
            label={t('settings:field.theme')}
            value={draft.theme}
            options={THEME_OPTIONS}
            onChange={set('theme')}
          />
          <SelectSetting
            id="setting-language"
            label={t('settings:field.language')}
            value={draft.language}
            options={LANGUAGE_OPTIONS}
            onChange={set('language')}
          />
          <SwitchSetting
            id="setting-compact-view"
            label={t('settings:field.compactView')}
            description={t('settings:field.compactViewHint')}
            isChecked={draft.compactView}
            onChange={set('compactView')}
          />
        </Section>
        <Section title={t('settings:section.formats')}>
          <SelectSetting
            id="setting-number-format"
            label={t('settings:field.numberFormat')}
            value={draft.numberFormat}
            options={NUMBER_FORMAT_OPTIONS}
            onChange={set('numberFormat')}
          />
          <SelectSetting
            id="setting-date-format"
            label={t('settings:field.dateFormat')}
            value={draft.dateFormat}
            options={DATE_FORMAT_OPTIONS}
            onChange={set('dateFormat')}
          />
          <SelectSetting
            id="setting-currency"
            label={t('settings:field.currency')}
            value={draft.currency}
            options={CURRENCY_OPTIONS}
            onChange={set('currency')}
          />
          <Link
            to="/exchange-rates"
            onClick={onDone}
            className="text-sm text-primary underline-offset-4 hover:underline"
          >
            {t('settings:field.exchangeRatesLink')}
          </Link>
          {isAdmin && (
            <Link
              to="/cycle"
              onClick={onDone}
              className="text-sm text-primary underline-offset-4 hover:underline"
            >
              {t('settings:field.cycleLink')}
            </Link>
          )}
        </Section>
        <Section title={t('settings:section.planningDefaults')}>
          <SelectSetting
            id="setting-default-view-level"
            label={t('settings:field.defaultViewLevel')}
            value={draft.defaultViewLevel}
            options={DEFAULT_VIEW_LEVEL_OPTIONS}
            onChange={set('defaultViewLevel')}
          />
          <SelectSetting
            id="setting-default-drill-down"
            label={t('settings:field.defaultDrillDown')}
            value={draft.defaultDrillDown}
            options={DEFAULT_DRILL_DOWN_OPTIONS}
            onChange={set('defaultDrillDown')}
          />
          <SelectSetting
            id="setting-export-format"
            label={t('settings:field.exportFormat')}
            value={draft.exportFormat}
            options={EXPORT_FORMAT_OPTIONS}
            onChange={set('exportFormat')}
          />
          <SwitchSetting
            id="setting-auto-save"
            label={t('settings:field.autoSave')}
            description={t('settings:field.autoSaveHint')}
            isChecked={draft.autoSave}
            onChange={set('autoSave')}
          />
          {isAdmin && (
            <SwitchSetting
              id="setting-require-override-reason"
              label={t('settings:policy.requireOverrideReason')}
              description={t('settings:policy.requireOverrideReasonHint')}
              isChecked={requireReason ?? policy.requireOverrideReason}
              onChange={setRequireReason}
            />
          )}
        </Section>
        <Section title={t('settings:section.notifications')}>
          <SwitchSetting
            id="setting-email-notifications"
            label={t('settings:field.emailNotifications')}
            description={
              mail?.emailAvailable === false
                ? t('settings:field.emailNotificationsInAppOnly')
                : t('settings:field.emailNotificationsHint')
            }
            isChecked={draft.emailNotifications}
            onChange={set('emailNotifications')}
          />
          <SwitchSetting
            id="setting-real-time-updates"
            label={t('settings:field.realTimeUpdates')}
            description={t('settings:field.realTimeUpdatesHint')}
            isChecked={draft.realTimeUpdates}
            onChange={set('realTimeUpdates')}
          />
          <SelectSetting
            id="setting-data-refresh-interval"
            label={t('settings:field.dataRefreshInterval')}
            value={draft.dataRefreshInterval}
            options={DATA_REFRESH_CHOICES}
            onChange={set('dataRefreshInterval')}
          />
          <SelectSetting
            id="setting-session-timeout"
            label={t('settings:field.sessionTimeout')}
            value={draft.sessionTimeout}
            options={SESSION_TIMEOUT_CHOICES}
            onChange={set('sessionTimeout')}
          />
        </Section>
      </div>
      <DialogFooter className="sm:justify-between">
        <Button variant="outline" className="text-destructive" onClick={() => void signOut()}>
          <LogOutIcon aria-hidden /> {t('settings:logout')}
        </Button>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={onDone}>
            {t('common:cancel')}
          </Button>
          <Button onClick={save}>{t('settings:save')}</Button>
        </div>
      </DialogFooter>
    </>
  );
}

/** Settings & Preferences (spec §2, §3): every user setting, saved under userSettings. */
export function SettingsDialog() {
  const { isSettingsDialogOpen, setSettingsDialogOpen, settingsDialogReturnFocus } = useUserSettings();
  const { t } = useTranslation();
  return (
    <Dialog open={isSettingsDialogOpen} onOpenChange={setSettingsDialogOpen}>
      <DialogContent
        className="max-w-3xl"
        onCloseAutoFocus={(event) => {
          const target = settingsDialogReturnFocus.current;
          if (!target?.isConnected) return;
          event.preventDefault();
          target.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('settings:title')}</DialogTitle>
          <DialogDescription>{t('settings:description')}</DialogDescription>
        </DialogHeader>
        <SettingsForm onDone={() => setSettingsDialogOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
