import type { Theme } from '@/lib/settings/settings-storage';

/** Spec §4: the page root carries the class of the theme shown. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.remove(theme === 'dark' ? 'light' : 'dark');
  root.classList.add(theme);
  root.style.colorScheme = theme;
}
