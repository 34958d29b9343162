import { HELP_CONTEXT_TITLES, HELP_CONTEXTS } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, speakerFor } from './answer-locale';

type Catalogue = { [key: string]: string | string[] | Catalogue };

function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'object' && !Array.isArray(value)
      ? keysOf(value, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

/** The catalogue's keys without plural suffixes: the same in every language. */
const stems = (catalogue: Catalogue) =>
  [...new Set(keysOf(catalogue).map((key) => key.replace(/_(one|many|other)$/, '')))].sort();

describe("the assistant's answer catalogues", () => {
  const en = CATALOGUES.en as Catalogue;

  it('hold the same keys in English, Spanish, French and German', () => {
    for (const catalogue of Object.values(CATALOGUES))
      expect(stems(catalogue as Catalogue)).toEqual(stems(en));
  });

  it('give every plural its forms: one/other, and many too in Spanish and French', () => {
    const plurals = keysOf(en)
      .filter((key) => key.endsWith('_other'))
      .map((key) => key.slice(0, -'_other'.length));
    expect(plurals.length).toBeGreaterThan(10);
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      const keys = keysOf(catalogue);
      const forms = language === 'es' || language === 'fr' ? ['one', 'many', 'other'] : ['one', 'other'];
      for (const plural of plurals) for (const form of forms) expect(keys).toContain(`${plural}_${form}`);
    }
  });

  it('use the same placeholders in every language', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const english = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Catalogue)[part], en);
    for (const catalogue of Object.values(CATALOGUES))
      for (const key of keysOf(catalogue)) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Catalogue)[part], catalogue);
        const source = english(key.replace(/_many$/, '_other'));
        if (typeof value === 'string' && typeof source === 'string')
          expect(new Set(placeholders(value)), key).toEqual(new Set(placeholders(source)));
      }
  });

  it('titles the help contexts as the spec does, in English', () => {
    const s = speakerFor(undefined, [], '2026-11-22');
    for (const context of HELP_CONTEXTS)
      expect(s.t(`help.${context}.title`)).toBe(HELP_CONTEXT_TITLES[context]);
  });
});

describe('the speaker', () => {
  const rates = [{ currency: 'inr' as const, validFrom: '2026-01-01', rate: 83.5 }];

  it('speaks US English with dollars by default', () => {
    const s = speakerFor(undefined, rates, '2026-11-22');
    expect(s.money(1234567.4)).toBe('$1,234,567');
    expect(s.signedMoney(-2500)).toBe('−$2,500');
    expect(s.units(64618)).toBe('64,618');
    expect(s.signedPercent(12.34)).toBe('+12.3%');
    expect(s.percent(null)).toBe('n/a');
    expect(s.date('2026-11-15')).toBe('11/15/2026');
    expect(s.period({ label: 'March 2027', from: '2027-03-01', to: '2027-04-01' })).toBe('March 2027');
    expect(s.t('records', { count: 1, records: '1' })).toBe('1 demand record.');
    expect(s.missingRate).toBeNull();
  });

  it("writes in the user's language, number and date format, converting money at today's rate", () => {
    const s = speakerFor(
      { language: 'spanish', numberFormat: 'indian', dateFormat: 'dd/mm/yyyy', currency: 'inr' },
      rates,
      '2026-11-22',
    );
    // 1,234,567.40 dollars × 83.5 = 103,086,377.9 rupees, grouped in lakhs and crores.
    expect(s.money(1234567.4)).toBe('₹10,30,86,378');
    expect(s.units(1234567)).toBe('12,34,567');
    expect(s.date('2026-11-15')).toBe('15/11/2026');
    expect(s.period({ label: 'March 2027', from: '2027-03-01', to: '2027-04-01' })).toBe('marzo de 2027');
    expect(s.t('records', { count: 2, records: '2' })).toBe('2 registros de demanda.');
    expect(s.t('records', { count: 1_000_000, records: '1,000,000' })).toBe(
      '1,000,000 registros de demanda.',
    );
  });

  it('says so and shows dollars when the currency has no rate valid today', () => {
    const s = speakerFor(
      { language: 'german', numberFormat: 'us', dateFormat: 'dd/mm/yyyy', currency: 'eur' },
      rates,
      '2026-11-22',
    );
    expect(s.money(100)).toBe('$100');
    expect(s.missingRate).toBe('Beträge in US-Dollar: Für € gilt heute kein Wechselkurs.');
  });
});
