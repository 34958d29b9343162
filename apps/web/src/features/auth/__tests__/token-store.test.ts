// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearTokens,
  getAccessToken,
  getDataToken,
  hasStoredTokens,
  storeTokens,
} from '@/lib/auth/token-store';

const OIDC_KEY = 'oidc.user:http://idp/oidc:planning-suite';

describe('token retrieval (spec §4)', () => {
  beforeEach(() => localStorage.clear());

  it('stores the spec keys with the expiry as epoch milliseconds', () => {
    storeTokens(
      { accessToken: 'at', idToken: 'it', refreshToken: 'rt', tokenType: 'Bearer', expiresIn: 1800 },
      1_000_000,
    );
    expect(localStorage.getItem('access_token')).toBe('at');
    expect(localStorage.getItem('id_token')).toBe('it');
    expect(localStorage.getItem('refresh_token')).toBe('rt');
    expect(localStorage.getItem('token_type')).toBe('Bearer');
    expect(localStorage.getItem('token_expires_at')).toBe(String(1_000_000 + 1_800_000));
    expect(localStorage.getItem('isAuthenticated')).toBe('true');
    expect(hasStoredTokens()).toBe(true);
  });

  it('prefers a stored access token only while it is unexpired', () => {
    localStorage.setItem(OIDC_KEY, JSON.stringify({ access_token: 'library-at', id_token: 'library-it' }));
    localStorage.setItem('access_token', 'stored-at');
    expect(getAccessToken()).toBe('library-at'); // no stored expiry: not valid
    localStorage.setItem('token_expires_at', String(Date.now() + 60_000));
    expect(getAccessToken()).toBe('stored-at');
    localStorage.setItem('token_expires_at', String(Date.now() - 1));
    expect(getAccessToken()).toBe('library-at');
    localStorage.removeItem(OIDC_KEY);
    expect(getAccessToken()).toBeNull();
  });

  it('sends the signed-in user’s ID token, then a stored ID token, then a stored access token', () => {
    expect(getDataToken()).toBeNull();
    localStorage.setItem('access_token', 'stored-at');
    expect(getDataToken()).toBe('stored-at');
    localStorage.setItem('id_token', 'stored-it');
    expect(getDataToken()).toBe('stored-it');
    localStorage.setItem(OIDC_KEY, JSON.stringify({ id_token: 'library-it' }));
    expect(getDataToken()).toBe('library-it');
  });

  it('needs both tokens for the stored-token check, and clearing removes every token', () => {
    localStorage.setItem('access_token', 'a');
    expect(hasStoredTokens()).toBe(false);
    localStorage.setItem('id_token', 'i');
    localStorage.setItem(OIDC_KEY, '{}');
    localStorage.setItem('userSettings', '{}');
    clearTokens();
    expect(hasStoredTokens()).toBe(false);
    expect(localStorage.getItem(OIDC_KEY)).toBeNull();
    expect(localStorage.getItem('userSettings')).toBe('{}');
  });
});
