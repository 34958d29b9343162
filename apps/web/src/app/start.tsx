// First: configures libraries for the CSP before any of them is used.
import '@/lib/content-security';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readSavedLanguage } from '@/lib/settings/settings-storage';
import { applyLanguage } from '@/i18n/i18n';
import { interfaceLanguage } from '@/i18n/languages';
import { startFirstScreenClock } from '@/lib/first-screen';
import '@/index.css';
import { App } from './App';
import { firstScreenDownloads } from './screens';

startFirstScreenClock();
/** The longest the first render waits for its screen's code before it shows the loading state. */
const SCREEN_WAIT_MS = 3_000;

// A user of another language than English sees theirs from the first paint: its catalogue first.
// The screen the page opens on is drawn in the first render, not its loading state: its code,
// downloading since the entry ran, is waited for too (it has usually arrived by now).
void Promise.allSettled([
  applyLanguage(interfaceLanguage(readSavedLanguage(localStorage), navigator.languages)),
  Promise.race([firstScreenDownloads(), new Promise((resolve) => setTimeout(resolve, SCREEN_WAIT_MS))]),
]).finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
