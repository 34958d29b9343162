import { aiAssistantEndpoints, type BodyInput, type ChatReply, type HelpResponse } from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

export function askAssistant(body: BodyInput<typeof aiAssistantEndpoints.chat>): Promise<ChatReply> {
  return callEndpoint(aiAssistantEndpoints.chat, { body, parse: true });
}

export function fetchHelpInsights(
  body: BodyInput<typeof aiAssistantEndpoints.help>,
  signal?: AbortSignal,
): Promise<HelpResponse> {
  return callEndpoint(aiAssistantEndpoints.help, { body, signal, parse: true });
}

export function saveScenario(body: BodyInput<typeof aiAssistantEndpoints.saveScenario>) {
  return callEndpoint(aiAssistantEndpoints.saveScenario, { body, parse: true });
}
