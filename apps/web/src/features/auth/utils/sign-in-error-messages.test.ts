import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '@/i18n/i18n';
import { signInErrorMessage } from './sign-in-error';

/** A failed sign-in's message is built in plain .ts and follows the interface language; expected texts written by hand. */
describe('sign-in error messages', () => {
  afterEach(async () => {
    await i18next.changeLanguage('en');
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
