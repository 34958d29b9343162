import type { AiConfig } from './ai-config';

/**
 * The assistant's "today": the one place it reads the date from, so relative periods ("next
 * quarter", "lately") and the greeting's scenario follow one clock. AI_TODAY fixes it (tests,
 * demos on a frozen data set); otherwise the system clock. When the server gains its own movable
 * clock, this function returns that clock instead.
 */
export function assistantClock(config: Pick<AiConfig, 'AI_TODAY'>): () => Date {
  const fixed = config.AI_TODAY;
  return fixed ? () => new Date(`${fixed}T12:00:00Z`) : () => new Date();
}
