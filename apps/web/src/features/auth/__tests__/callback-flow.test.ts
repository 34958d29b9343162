import { ErrorResponse } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import { errorRedirect, exchangeFailure } from '../utils/callback-flow';
import { signInErrorMessage } from '../utils/sign-in-error';

describe('callback failures (spec §8)', () => {
  it('turns invalid_grant into auth_expired with "Please sign in again"', () => {
    expect(
      exchangeFailure(
        new ErrorResponse({ error: 'invalid_grant', error_description: 'grant request is invalid' }),
      ),
    ).toEqual({
      kind: 'redirect',
      to: '/?error=auth_expired&error_description=Please+sign+in+again',
    });
  });

  it('turns other token endpoint errors into token_exchange_failed with status and detail', () => {
    expect(
      exchangeFailure(
        new ErrorResponse({ error: 'invalid_request', error_description: 'code_verifier missing' }),
      ),
    ).toEqual(errorRedirect('token_exchange_failed', 'Token exchange failed: 400 - code_verifier missing'));
    expect(exchangeFailure(new Error('Internal Server Error (500): {}'))).toEqual(
      errorRedirect('token_exchange_failed', 'Token exchange failed: 500 - {}'),
    );
  });

  it('reports a library failure such as a state mismatch on the page', () => {
    expect(exchangeFailure(new Error('No matching state found in storage'))).toEqual({
      kind: 'failed',
      message: 'No matching state found in storage',
    });
  });

  it('explains each /?error= address', () => {
    expect(signInErrorMessage('?error=auth_timeout')).toBe('Sign-in took too long. Please try again.');
    expect(signInErrorMessage('?error=auth_expired&error_description=Please+sign+in+again')).toBe(
      'Please sign in again',
    );
    expect(signInErrorMessage('?error=access_denied&error_description=End-User+aborted+interaction')).toBe(
      'End-User aborted interaction',
    );
    expect(signInErrorMessage('?error=no_authorization_code')).toMatch(/no authorization code/);
    expect(signInErrorMessage('?foo=1')).toBeNull();
  });
});
