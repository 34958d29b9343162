import { i18next } from '../../../i18n/i18n';

/** The codes our own callback sends back, with the sentence the user reads for each. */
const OWN_CODE_KEYS: Record<string, string> = {
  auth_timeout: 'auth:signInError.auth_timeout',
  no_authorization_code: 'auth:signInError.no_authorization_code',
  auth_expired: 'auth:signInError.auth_expired',
};

const EXCHANGE_PREFIX = /^Token exchange failed: /;

/**
 * The message for a `/?error=…` the callback or provider sent back (spec §8): our own codes in the
 * interface language (auth_expired's English description is that same sentence); for other codes
 * the description when one came along (provider errors, token_exchange_failed), else the code.
 */
export function signInErrorMessage(search: string): string | null {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  if (!error) return null;
  const key = OWN_CODE_KEYS[error];
  if (key) return i18next.t(key);
  const description = params.get('error_description');
  // Spec §8 writes 'Token exchange failed: {status} - {detail}' into the address, in English.
  const exchangeDetail = error === 'token_exchange_failed' && description?.replace(EXCHANGE_PREFIX, '');
  if (exchangeDetail) return i18next.t('auth:signInError.token_exchange_failed', { detail: exchangeDetail });
  return description || error;
}
