/**
 * The message for a `/?error=…` the callback or provider sent back (spec §8): the description when
 * one came along (provider errors, auth_expired, token_exchange_failed), else a sentence per code.
 */
export function signInErrorMessage(search: string): string | null {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  if (!error) return null;
  const description = params.get('error_description');
  if (description) return description;
  switch (error) {
    case 'auth_timeout':
      return 'Sign-in took too long. Please try again.';
    case 'no_authorization_code':
      return 'The sign-in response had no authorization code. Please try again.';
    case 'auth_expired':
      return 'Please sign in again';
    default:
      return error;
  }
}
