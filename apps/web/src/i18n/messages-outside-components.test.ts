import { afterEach, describe, expect, it } from 'vitest';
import { signInErrorMessage } from '../features/auth/utils/sign-in-error';
import { parseEditValue } from '../features/demand-planning/utils/edit-values';
import { i18next } from './i18n';

/** Sentences built in plain .ts files follow the interface language; expected texts written by hand. */
describe('messages built outside components', () => {
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

  it('explains a failed sign-in in Spanish, keeping the provider’s detail', async () => {
    await i18next.changeLanguage('es');
    expect(signInErrorMessage('?error=auth_timeout')).toBe(
      'El inicio de sesión ha tardado demasiado. Inténtelo de nuevo.',
    );
    expect(
      signInErrorMessage(
        '?error=token_exchange_failed&error_description=Token+exchange+failed%3A+400+-+bad+code',
      ),
    ).toBe('Error al canjear el código de inicio de sesión: 400 - bad code');
  });
});
