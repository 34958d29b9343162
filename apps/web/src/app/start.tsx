// First: configures libraries for the CSP before any of them is used.
import '@/lib/content-security';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readSavedLanguage } from '@/lib/settings/settings-storage';
import { applyLanguage } from '@/i18n/i18n';
import { interfaceLanguage } from '@/i18n/languages';
import '@/index.css';
import { App } from './App';

// A user of another language than English sees theirs from the first paint: its catalogue first.
void applyLanguage(interfaceLanguage(readSavedLanguage(localStorage), navigator.languages)).finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
