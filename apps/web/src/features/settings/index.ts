/** What the settings feature offers the rest of the app; its other files are its own. */
export { SettingsDialog } from './components/SettingsDialog';
