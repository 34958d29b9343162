/** What the spreadsheet-export feature offers the rest of the app; its other files are its own. */
export { ExportMenu } from './ExportMenu';
export { type ExportView } from './spreadsheet-export.api';
