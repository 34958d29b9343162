/** What the spreadsheet-import feature offers the rest of the app; its other files are its own. */
export { ImportControl } from './ImportDialog';
