import { toast } from '@/components/ui/toast-store';
import { signInErrorMessage } from './sign-in-error';

/** Raises the 'Sign-in failed' toast for a `/?error=…` address, if it holds one. */
export function announceSignInError(search: string): void {
  const message = signInErrorMessage(search);
  if (message) toast({ title: 'Sign-in failed', description: message, variant: 'destructive' });
}
