import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from './languages';

/** Every catalogue file, `locales/<language>/<namespace>.json`, bundled so switching never waits. */
const catalogueFiles = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', {
  eager: true,
  import: 'default',
});

function resourcesFrom(files: Record<string, Record<string, unknown>>): Resource {
  const resources: Resource = {};
  for (const [path, catalogue] of Object.entries(files)) {
    const [, language, namespace] = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(path) ?? [];
    if (!language || !namespace) continue;
    resources[language] = { ...resources[language], [namespace]: catalogue };
  }
  return resources;
}

export const resources = resourcesFrom(catalogueFiles);
export const NAMESPACES = Object.keys(resources[FALLBACK_LANGUAGE] ?? {});

void i18next.use(initReactI18next).init({
  resources,
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: LANGUAGES,
  ns: NAMESPACES,
  defaultNS: 'common',
  // React escapes what it renders; escaping here too would show '&amp;' for 'S&D'.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches every mounted component at once and keeps `<html lang>` in step. */
export function applyLanguage(language: Language): void {
  document.documentElement.lang = language;
  if (i18next.language !== language) void i18next.changeLanguage(language);
}

export { i18next };
