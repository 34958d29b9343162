import { z } from 'zod';
import { ZChatRequest, ZScenarioRequest, type ChatReply, type ScenarioPreview } from '../ai/chat';
import { ZHelpRequest, ZHelpResponse } from '../ai/help';
import { defineEndpoint } from './endpoint';

const ZAmount = z.number().refine(Number.isFinite);
const ZFigures = z.strictObject({ units: ZAmount, cost: ZAmount, revenue: ZAmount, margin: ZAmount });

export const ZScenarioPreview = ZScenarioRequest.extend({
  records: z.number().int().min(0),
  before: ZFigures,
  after: ZFigures,
}) satisfies z.ZodType<ScenarioPreview>;

export const ZChatReply = z.strictObject({
  response: z.string(),
  sessionId: z.string(),
  source: z.enum(['offline', 'model']),
  scenario: ZScenarioPreview.nullable(),
}) satisfies z.ZodType<ChatReply>;

export const ZScenarioSaved = z.strictObject({
  scenario: ZScenarioPreview,
  updatedRecords: z.number().int().min(0),
  changedFields: z.number().int().min(0),
});

/** AI assistant: chat, help insights and saving a confirmed what-if as overrides. */
export const aiAssistantEndpoints = {
  chat: defineEndpoint({
    method: 'POST',
    path: '/api/ai/chat',
    access: 'signed-in',
    summary:
      "Answers a planning question from the caller's own data (offline analyst, or the configured model)",
    body: ZChatRequest,
    response: { data: ZChatReply },
  }),
  chatStream: defineEndpoint({
    method: 'POST',
    path: '/api/ai/chat/stream',
    access: 'signed-in',
    summary:
      'The same answer as /api/ai/chat, streamed as newline-delimited JSON events (delta…, then done or error)',
    body: ZChatRequest,
    response: { mediaType: 'application/x-ndjson' },
  }),
  help: defineEndpoint({
    method: 'POST',
    path: '/api/ai-help',
    access: 'signed-in',
    summary: "Help insights for one help context, filled with the caller's current figures",
    body: ZHelpRequest,
    response: { data: ZHelpResponse },
  }),
  saveScenario: defineEndpoint({
    method: 'POST',
    path: '/api/ai/scenario',
    access: 'write',
    summary: 'Saves a confirmed what-if scenario as SOP unit overrides through the audited batch save',
    body: ZScenarioRequest,
    response: { data: ZScenarioSaved },
  }),
};
