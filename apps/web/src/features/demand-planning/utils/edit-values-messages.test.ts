import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '@/i18n/i18n';
import { parseEditValue } from './edit-values';

/** A cell's refusal is built in plain .ts and follows the interface language; expected texts written by hand. */
describe('cell value refusals', () => {
  afterEach(async () => {
    await i18next.changeLanguage('en');
  });

  it('refuses a cell value naming the column and the rule in German', async () => {
    await i18next.changeLanguage('de');
    expect(parseEditValue('Rev_Pln_Ovrd_Percent', 100.01)).toMatchObject({
      ok: false,
      message: 'Rev-Plankorrektur %: Der Wert darf höchstens 100 sein',
    });
    expect(parseEditValue('Rev_Pln_Ovrd_Units', 1.5)).toMatchObject({
      ok: false,
      message: 'Rev-Plankorrektur Menge: Der Wert muss eine ganze Zahl sein',
    });
    expect(parseEditValue('Comments', 'x'.repeat(501))).toMatchObject({
      ok: false,
      message: 'Kommentare: Höchstens 500 Zeichen erlaubt',
    });
  });

  it('keeps the spec English for the same refusals', () => {
    expect(parseEditValue('Rev_Pln_Ovrd_Units', -3)).toMatchObject({
      ok: false,
      message: 'Rev Plan Override Units must be 0 or more',
    });
    expect(parseEditValue('Reason_Code', 'Because')).toMatchObject({
      ok: false,
      message:
        'Reason Code must be one of Market Trend, Supply Chain, Seasonal Adjustment, Strategic Initiative, Other',
    });
  });
});
