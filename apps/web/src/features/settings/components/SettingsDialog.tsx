import type { UserSettings } from '@ps/domain';
import { LogOutIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
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
import { useAuth } from '@/features/auth';
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
} from '../settings-options';
import { useUserSettings } from '../useUserSettings';
import { SelectSetting, SwitchSetting } from './SettingField';

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
  const { signOut } = useAuth();
  const [draft, setDraft] = useState<UserSettings>(settings);
  const set =
    <K extends keyof UserSettings>(key: K) =>
    (value: UserSettings[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  // Spec §5: settings save with no validation.
  const save = () => {
    saveSettings(draft);
    toast({ title: 'Settings Saved', description: 'Your preferences have been saved successfully.' });
    onDone();
  };

  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <Section title="Appearance">
          <SelectSetting
            id="setting-theme"
            label="Theme"
            value={draft.theme}
            options={THEME_OPTIONS}
            onChange={set('theme')}
          />
          <SelectSetting
            id="setting-language"
            label="Language"
            value={draft.language}
            options={LANGUAGE_OPTIONS}
            onChange={set('language')}
          />
          <SwitchSetting
            id="setting-compact-view"
            label="Compact View"
            description="Tighter rows in data grids"
            isChecked={draft.compactView}
            onChange={set('compactView')}
          />
        </Section>
        <Section title="Formats">
          <SelectSetting
            id="setting-number-format"
            label="Number Format"
            value={draft.numberFormat}
            options={NUMBER_FORMAT_OPTIONS}
            onChange={set('numberFormat')}
          />
          <SelectSetting
            id="setting-date-format"
            label="Date Format"
            value={draft.dateFormat}
            options={DATE_FORMAT_OPTIONS}
            onChange={set('dateFormat')}
          />
          <SelectSetting
            id="setting-currency"
            label="Currency"
            value={draft.currency}
            options={CURRENCY_OPTIONS}
            onChange={set('currency')}
          />
        </Section>
        <Section title="Planning Defaults">
          <SelectSetting
            id="setting-default-view-level"
            label="Default View Level"
            value={draft.defaultViewLevel}
            options={DEFAULT_VIEW_LEVEL_OPTIONS}
            onChange={set('defaultViewLevel')}
          />
          <SelectSetting
            id="setting-default-drill-down"
            label="Default Drill Down"
            value={draft.defaultDrillDown}
            options={DEFAULT_DRILL_DOWN_OPTIONS}
            onChange={set('defaultDrillDown')}
          />
          <SelectSetting
            id="setting-export-format"
            label="Export Format"
            value={draft.exportFormat}
            options={EXPORT_FORMAT_OPTIONS}
            onChange={set('exportFormat')}
          />
          <SwitchSetting
            id="setting-auto-save"
            label="Auto Save"
            description="Save grid edits without pressing Save Changes"
            isChecked={draft.autoSave}
            onChange={set('autoSave')}
          />
        </Section>
        <Section title="Notifications & Data">
          <SwitchSetting
            id="setting-email-notifications"
            label="Email Notifications"
            description="Receive plan updates by email"
            isChecked={draft.emailNotifications}
            onChange={set('emailNotifications')}
          />
          <SwitchSetting
            id="setting-real-time-updates"
            label="Real-time Updates"
            description="Refresh data automatically"
            isChecked={draft.realTimeUpdates}
            onChange={set('realTimeUpdates')}
          />
          <SelectSetting
            id="setting-data-refresh-interval"
            label="Data Refresh Interval"
            value={draft.dataRefreshInterval}
            options={DATA_REFRESH_CHOICES}
            onChange={set('dataRefreshInterval')}
          />
          <SelectSetting
            id="setting-session-timeout"
            label="Session Timeout"
            value={draft.sessionTimeout}
            options={SESSION_TIMEOUT_CHOICES}
            onChange={set('sessionTimeout')}
          />
        </Section>
      </div>
      <DialogFooter className="sm:justify-between">
        <Button variant="outline" className="text-destructive" onClick={() => void signOut()}>
          <LogOutIcon aria-hidden /> Logout
        </Button>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button onClick={save}>Save Settings</Button>
        </div>
      </DialogFooter>
    </>
  );
}

/** Settings & Preferences (spec §2, §3): every user setting, saved under userSettings. */
export function SettingsDialog() {
  const { isSettingsDialogOpen, setSettingsDialogOpen, settingsDialogReturnFocus } = useUserSettings();
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
          <DialogTitle>Settings & Preferences</DialogTitle>
          <DialogDescription>Theme, formats, notifications and planning defaults.</DialogDescription>
        </DialogHeader>
        <SettingsForm onDone={() => setSettingsDialogOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
