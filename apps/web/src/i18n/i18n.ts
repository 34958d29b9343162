import i18next, { type BackendModule, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from './languages';

type Catalogue = Record<string, unknown>;

const CATALOGUE_PATH = /\.\/locales\/(\w+)\/([\w-]+)\.json$/;

/**
 * English, the fallback every other language leans on, is bundled; the other languages' catalogues
 * load when one is chosen (each language is one chunk, vite.config.ts): the entry path carried
 * all four, three of them unread by most users.
 */
const englishFiles = import.meta.glob<Catalogue>('./locales/en/*.json', { eager: true, import: 'default' });
const otherFiles = import.meta.glob<Catalogue>(['./locales/*/*.json', '!./locales/en/*.json'], {
  import: 'default',
});

const english: ResourceLanguage = {};
for (const [path, catalogue] of Object.entries(englishFiles)) {
  const namespace = CATALOGUE_PATH.exec(path)?.[2];
  if (namespace) english[namespace] = catalogue;
}

export const NAMESPACES = Object.keys(english);

/** Reads a catalogue of a language other than English from its chunk. */
const lazyCatalogues: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, namespace, done) => {
    const load = otherFiles[`./locales/${language}/${namespace}.json`];
    if (!load) {
      done(new Error(`locales/${language}/${namespace}.json`), false);
      return;
    }
    load().then(
      (catalogue) => done(null, catalogue),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

void i18next
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    resources: { [FALLBACK_LANGUAGE]: english },
    partialBundledLanguages: true,
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

let requested: { language: Language; settled: Promise<void> } = {
  language: FALLBACK_LANGUAGE,
  settled: Promise.resolve(),
};

/**
 * Switches every mounted component at once, and `<html lang>` with them, once the language's
 * catalogue is here (it loads the first time the language is chosen); settles then. The last
 * language asked for wins.
 */
export function applyLanguage(language: Language): Promise<void> {
  if (language !== requested.language) {
    const settled = i18next.changeLanguage(language).then(() => {
      if (requested.language === language) document.documentElement.lang = language;
    });
    requested = { language, settled };
  }
  return requested.settled;
}

export { i18next };
