import type { AnswerLocale } from '@ps/domain';
import { useMemo } from 'react';
import { useUserSettings } from '@/lib/settings/useUserSettings';

/** The settings the assistant writes its answers with: language, number and date format, currency. */
export function useAnswerLocale(): AnswerLocale {
  const { language, numberFormat, dateFormat, currency } = useUserSettings().settings;
  return useMemo(
    () => ({ language, numberFormat, dateFormat, currency }),
    [language, numberFormat, dateFormat, currency],
  );
}
