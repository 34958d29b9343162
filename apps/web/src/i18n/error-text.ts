import { ApiError } from '@/lib/api-client';
import { i18next } from './i18n';

/** The server's stable error codes (apps/server/src/lib/errors.ts) and their catalogue keys. */
const CODE_KEYS: Record<string, string> = {
  VALIDATION: 'errors:code.VALIDATION',
  UNAUTHENTICATED: 'errors:code.UNAUTHENTICATED',
  FORBIDDEN: 'errors:code.FORBIDDEN',
  NOT_FOUND: 'errors:code.NOT_FOUND',
  CONFLICT: 'errors:code.CONFLICT',
  STALE: 'errors:code.STALE',
  BUSY: 'errors:code.BUSY',
  INTERNAL: 'errors:code.INTERNAL',
};

/**
 * What the user reads for a failure. The server's message is the spec's English text, so English
 * shows it unchanged; other languages show the translated text of its code, and for a validation
 * error keep the server's sentence as the detail because it names the field.
 */
export function errorText(error: unknown): string {
  const { t } = i18next;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const key = error instanceof ApiError && error.code ? CODE_KEYS[error.code] : undefined;
  if (!key || i18next.resolvedLanguage === 'en') return message || t('errors:unknown');
  if (error instanceof ApiError && error.code === 'VALIDATION' && message)
    return t('errors:validationDetail', { detail: message });
  return t(key);
}
