import { z } from 'zod';
import { ZUserSettings } from '../api/user-settings.contract';
import { DRILL_DOWNS, VIEW_LEVELS } from '../planning-grid';

/** Longest question a user may type (the drawer counts it; the server refuses more). */
export const MAX_QUESTION_LENGTH = 1000;
/** The question wrapped with its page context (spec §7) may be this long. */
export const MAX_CHAT_MESSAGE_LENGTH = 2000;

/** Spec §5: an empty or whitespace-only message is not sent, nor one over the limit. */
export function isSendable(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length > 0 && trimmed.length <= MAX_QUESTION_LENGTH;
}

/** Spec §5: Enter sends, Shift+Enter adds a line (and so does Enter while an IME composes). */
export function sendsOnKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing;
}

/** Spec §9: the four suggested prompts, shown while the chat holds at most one message. */
export const SUGGESTED_PROMPTS = [
  'How accurate is our forecast?',
  'Where is the plan above or below the forecast?',
  'What are the best practices for overrides?',
  'How should I interpret the actuals?',
] as const;

/** Spec §9: the greeting proposes this scenario. */
/** Spec §9: the greeting proposes this scenario, on the next quarter (never one already past). */
export const GREETING_SCENARIO = { name: 'Demand Upside (End User)', percent: 15 } as const;
export const GREETING_SCENARIO_PROMPT = `Run the scenario ${GREETING_SCENARIO.name}: demand up ${GREETING_SCENARIO.percent}% next quarter`;

const ZFilterList = z.array(z.string().trim().min(1).max(100)).max(200);

/** Filters of the page the question was asked on; empty or absent means everything in scope. */
export const ZPageFilters = z.strictObject({
  bu: ZFilterList.optional(),
  pf: ZFilterList.optional(),
  region: ZFilterList.optional(),
});
export type PageFilters = z.infer<typeof ZPageFilters>;

/**
 * How the user reads: the offline answers and help insights are written in their language, with
 * their number and date format, and money in their currency (absent: English, US, dollars).
 */
export const ZAnswerLocale = ZUserSettings.pick({
  language: true,
  numberFormat: true,
  dateFormat: true,
  currency: true,
});
export type AnswerLocale = z.infer<typeof ZAnswerLocale>;

/** Spec §7: the page context that goes with every question. */
export const ZChatContext = z.strictObject({
  page: z.string().trim().min(1).max(100),
  viewLevel: z.enum(VIEW_LEVELS).optional(),
  drillDownType: z.enum(DRILL_DOWNS).optional(),
  filters: ZPageFilters.optional(),
  clientContext: z.string().max(50).optional(),
  locale: ZAnswerLocale.optional(),
});
export type ChatContext = z.infer<typeof ZChatContext>;

export const ZChatRequest = z.strictObject({
  message: z
    .string({ error: 'must be text' })
    .max(MAX_CHAT_MESSAGE_LENGTH, { error: `must be at most ${MAX_CHAT_MESSAGE_LENGTH} characters` })
    .refine((text) => text.trim().length > 0, { error: 'must not be empty' }),
  sessionId: z.uuid({ error: 'must be a UUID' }),
  context: ZChatContext,
});
export type ChatRequest = z.infer<typeof ZChatRequest>;

/** Before and after figures of a what-if scenario (units, cost, revenue, margin = revenue − cost). */
export type ScenarioFigures = { units: number; cost: number; revenue: number; margin: number };

export const ZScenarioRequest = z.strictObject({
  name: z.string().trim().min(1).max(80),
  percent: z
    .number({ error: 'must be a number' })
    .min(-100, { error: 'must be at least -100' })
    .max(500, { error: 'must be at most 500' }),
  quarter: z.string().regex(/^\d{4}-Q[1-4]$/, { error: 'must look like 2026-Q3' }),
  bu: z.string().trim().min(1).max(100).optional(),
  pf: z.string().trim().min(1).max(100).optional(),
  clientContext: z.string().max(50).optional(),
});
export type ScenarioRequest = z.infer<typeof ZScenarioRequest>;

export type ScenarioPreview = ScenarioRequest & {
  records: number;
  before: ScenarioFigures;
  after: ScenarioFigures;
};

export type ChatReply = {
  response: string;
  sessionId: string;
  /** 'offline' (the built-in analyst) or 'model' (the configured LLM). */
  source: 'offline' | 'model';
  /** A what-if the user may save as overrides after confirming it. */
  scenario: ScenarioPreview | null;
};

/**
 * One line of POST /api/ai/chat/stream (newline-delimited JSON): pieces of the answer as they come,
 * then `done` with what the JSON reply would carry, or `error` with the message to show.
 */
export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | ({ type: 'done' } & Omit<ChatReply, 'response'>)
  | { type: 'error'; message: string };

/** How the drawer sends a question: the question wrapped with its page context (spec §7). */
export function wrapQuestion(question: string, context: ChatContext): string {
  const parts = [`Page: ${context.page}`];
  if (context.viewLevel) parts.push(`View level: ${context.viewLevel}`);
  if (context.drillDownType) parts.push(`Drill down: ${context.drillDownType}`);
  for (const key of ['bu', 'pf', 'region'] as const) {
    const values = context.filters?.[key];
    if (values && values.length > 0) parts.push(`${key.toUpperCase()}: ${values.join(', ')}`);
  }
  return `[Context] ${parts.join('; ')}\n[Question] ${question.trim()}`;
}

/** The question inside a wrapped message; a message without the wrapper is all question. */
export function unwrapQuestion(message: string): string {
  const marker = message.indexOf('[Question]');
  return (marker >= 0 ? message.slice(marker + '[Question]'.length) : message).trim();
}
