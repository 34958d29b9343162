import type { UserSettings } from '@ps/domain';

/** The interface languages: BCP 47 codes, as i18next and `<html lang>` use them. */
export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

const LANGUAGE_OF_SETTING: Record<UserSettings['language'], Language> = {
  english: 'en',
  spanish: 'es',
  french: 'fr',
  german: 'de',
};

export function languageOfSetting(setting: UserSettings['language']): Language {
  return LANGUAGE_OF_SETTING[setting];
}

export function settingOfLanguage(language: Language): UserSettings['language'] {
  const [setting] = Object.entries(LANGUAGE_OF_SETTING).find(([, code]) => code === language) ?? [];
  return (setting as UserSettings['language'] | undefined) ?? 'english';
}

function isLanguage(code: string): code is Language {
  return (LANGUAGES as readonly string[]).includes(code);
}

/**
 * The first of the browser's preferred languages we have, by primary subtag ('de-AT' → 'de');
 * English when none matches.
 */
export function bestBrowserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0] ?? '';
    if (isLanguage(primary)) return primary;
  }
  return FALLBACK_LANGUAGE;
}

/** A saved language setting decides; without one, the browser's preferences do. */
export function interfaceLanguage(
  savedSetting: UserSettings['language'] | undefined,
  browserLanguages: readonly string[],
): Language {
  return savedSetting ? languageOfSetting(savedSetting) : bestBrowserLanguage(browserLanguages);
}
