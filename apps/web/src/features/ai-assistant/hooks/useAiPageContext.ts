import type { ChatContext, HelpCurrentData } from '@ps/domain';
import { useEffect, useSyncExternalStore } from 'react';

/**
 * What the current screen tells the assistant (spec §7: page, view level, drill-down, filters;
 * the help bubble also reads pending edits). Screens publish it with usePublishAiPageContext;
 * the drawer, mounted in the layout, reads it.
 */
export type AiPageContext = Omit<ChatContext, 'clientContext'> & Pick<HelpCurrentData, 'pendingChanges'>;

let current: AiPageContext | null = null;
const listeners = new Set<() => void>();

function setContext(next: AiPageContext | null): void {
  current = next;
  for (const listener of listeners) listener();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => current;

export function useAiPageContext(): AiPageContext | null {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** One line per screen: keeps the assistant's page context in step with the screen's state. */
export function usePublishAiPageContext(context: AiPageContext): void {
  const key = JSON.stringify(context);
  useEffect(() => {
    setContext(JSON.parse(key) as AiPageContext);
    return () => setContext(null);
  }, [key]);
}
