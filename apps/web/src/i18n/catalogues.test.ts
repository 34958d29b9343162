import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';

/** Catalogue checks: same keys, variables and plural forms everywhere, none unused. */
const LOCALES = join(import.meta.dirname, 'locales');
const SOURCE = join(import.meta.dirname, '..');
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Flat = Map<string, string>;

function flatten(value: unknown, prefix: string, into: Flat): Flat {
  if (typeof value === 'string') into.set(prefix, value);
  else if (typeof value === 'object' && value !== null)
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

/** Every key of one language as 'namespace:path', plural forms kept with their suffix. */
function catalogueOf(language: string): Flat {
  const flat: Flat = new Map();
  for (const file of readdirSync(join(LOCALES, language))) {
    const namespace = file.replace(/\.json$/, '');
    const json = JSON.parse(readFileSync(join(LOCALES, language, file), 'utf8')) as unknown;
    flatten(json, '', new Map()).forEach((text, key) => flat.set(`${namespace}:${key}`, text));
  }
  return flat;
}

const variablesOf = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1] ?? '').sort();
const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, '');

function pluralFormsOf(catalogue: Flat): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const key of catalogue.keys()) {
    const suffix = PLURAL_SUFFIX.exec(key)?.[1];
    if (suffix) forms.set(baseKey(key), [...(forms.get(baseKey(key)) ?? []), suffix].sort());
  }
  return forms;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const english = catalogueOf('en');
const namespaces = new Set([...english.keys()].map((key) => key.split(':')[0]));

describe('message catalogues', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every English key and no other', (language) => {
    const other = catalogueOf(language);
    const singular = (catalogue: Flat) =>
      [...new Set([...catalogue.keys()].filter((k) => !PLURAL_SUFFIX.test(k)))].sort();
    expect(singular(other)).toEqual(singular(english));
    expect([...pluralFormsOf(other).keys()].sort()).toEqual([...pluralFormsOf(english).keys()].sort());
  });

  it.each(LANGUAGES)('%s has exactly the plural forms its language needs', (language) => {
    const needed = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
    for (const [key, forms] of pluralFormsOf(catalogueOf(language)))
      expect([key, forms]).toEqual([key, needed]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s uses the same interpolation variables', (language) => {
    const other = catalogueOf(language);
    const englishVariables = new Map<string, string[]>();
    english.forEach((text, key) => englishVariables.set(baseKey(key), variablesOf(text)));
    other.forEach((text, key) => {
      // A plural form may leave out the count ("un produit"); it may not add or lose anything else.
      const expected = (englishVariables.get(baseKey(key)) ?? []).filter(
        (v) => v !== 'count' || text.includes('{{count}}'),
      );
      expect([key, variablesOf(text)]).toEqual([key, expected]);
    });
  });

  it('every key is used in the source and every key the source names exists', () => {
    const keyLiteral = /['"`]([a-z][\w-]*):([\w.]+)['"`]/g;
    const used = new Set<string>();
    const missing: string[] = [];
    for (const file of sourceFiles(SOURCE)) {
      for (const [, namespace, path] of readFileSync(file, 'utf8').matchAll(keyLiteral)) {
        if (!namespaces.has(namespace)) continue;
        const key = `${namespace}:${path}`;
        used.add(key);
        const exists = english.has(key) || [...english.keys()].some((k) => baseKey(k) === key);
        if (!exists) missing.push(`${key} in ${relative(SOURCE, file)}`);
      }
    }
    expect(missing).toEqual([]);
    const unused = [...new Set([...english.keys()].map(baseKey))].filter((key) => !used.has(key));
    expect(unused).toEqual([]);
  });
});
