import { toast } from '@/components/ui/toast-store';
import { i18next } from '@/i18n/i18n';
import { signInErrorMessage } from './sign-in-error';

/** Raises the 'Sign-in failed' toast for a `/?error=…` address, if it holds one. */
export function announceSignInError(search: string): void {
  const message = signInErrorMessage(search);
  if (message) toast({ title: i18next.t('auth:signInFailed'), description: message, variant: 'destructive' });
}
