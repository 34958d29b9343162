import { themeQuartz } from 'ag-grid-community';

/**
 * AG Grid's Quartz theme painted with the app's design tokens (src/index.css). The tokens are CSS
 * variables that switch with the `.dark` class, so one theme serves light and dark; only the
 * browser colour scheme (scrollbars, native inputs inside editors) needs the mode.
 */
const shared = {
  fontFamily: 'inherit',
  fontSize: 13,
  backgroundColor: 'var(--card)',
  foregroundColor: 'var(--card-foreground)',
  chromeBackgroundColor: 'var(--muted)',
  headerBackgroundColor: 'var(--muted)',
  headerTextColor: 'var(--foreground)',
  headerFontWeight: 600,
  borderColor: 'var(--border)',
  accentColor: 'var(--primary)',
  wrapperBorderRadius: 8,
  spacing: 6,
} as const;

export const gridThemeLight = themeQuartz.withParams({ ...shared, browserColorScheme: 'light' });
export const gridThemeDark = themeQuartz.withParams({ ...shared, browserColorScheme: 'dark' });
