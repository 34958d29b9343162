import { describe, expect, it } from 'vitest';
import { SIGN_IN_LANGUAGES, SIGN_IN_MESSAGES, signInLanguage } from './sign-in-messages';
import { renderProviderErrorPage, renderSignedOutPage, renderSignOutPage } from './sign-in-page';

describe('sign-in page messages', () => {
  const english = SIGN_IN_MESSAGES.en;
  const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map(([match]) => match);

  it.each(SIGN_IN_LANGUAGES)('%s has every key, each with text and the same placeholders', (language) => {
    const messages = SIGN_IN_MESSAGES[language];
    expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(messages)) {
      expect([key, text.trim().length > 0]).toEqual([key, true]);
      expect([key, placeholders(text)]).toEqual([key, placeholders(english[key as keyof typeof english])]);
    }
  });

  it('takes the app’s ui_locales first, then Accept-Language by quality, else English', () => {
    expect(signInLanguage('fr', 'de')).toBe('fr');
    expect(signInLanguage('pt es-MX', undefined)).toBe('es');
    expect(signInLanguage(undefined, 'de-AT,de;q=0.9')).toBe('de');
    expect(signInLanguage(undefined, 'en;q=0.5, fr;q=0.8')).toBe('fr');
    expect(signInLanguage(undefined, 'de;q=0, es')).toBe('es');
    expect(signInLanguage('', 'pt-BR')).toBe('en');
    expect(signInLanguage(undefined, undefined)).toBe('en');
  });
});

describe("the provider's other pages", () => {
  it('speak the language asked for, with the page language set', () => {
    const signedOut = renderSignedOutPage('de');
    expect(signedOut).toContain('<html lang="de">');
    expect(signedOut).toContain('<h1>Abgemeldet</h1>');
    expect(signedOut).toContain('Zur Startseite');
    const signOut = renderSignOutPage('<form id="op.logoutForm"></form>', 'fr');
    expect(signOut).toContain('Voulez-vous vous déconnecter de Planning Suite ?');
    expect(signOut).toContain('Oui, me déconnecter');
    const error = renderProviderErrorPage('session_expired', 'Este inicio de sesión ha caducado.', 'es');
    expect(error).toContain('<h1>Problema al iniciar sesión</h1>');
    expect(error).toContain('Código: session_expired');
  });
});
