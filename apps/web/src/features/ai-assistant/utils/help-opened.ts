import type { HelpContext } from '@ps/domain';

/** Browser key of the help contexts the user has opened (the pulsing dot shows until then). */
export const HELP_OPENED_KEY = 'ai-help-opened';

function read(): HelpContext[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(HELP_OPENED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is HelpContext => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function wasHelpOpened(context: HelpContext): boolean {
  return read().includes(context);
}

export function markHelpOpened(context: HelpContext): void {
  const opened = read();
  if (opened.includes(context)) return;
  try {
    localStorage.setItem(HELP_OPENED_KEY, JSON.stringify([...opened, context]));
  } catch {
    // Storage blocked: the dot comes back next visit, nothing else is lost.
  }
}
