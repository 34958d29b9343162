import {
  aiAssistantEndpoints,
  type BodyInput,
  type ChatReply,
  type ChatStreamEvent,
  type HelpResponse,
} from '@ps/domain';
import { getDataToken } from '@/features/auth';
import { ApiError, callEndpoint } from '@/lib/api-client';

/**
 * Asks the assistant and hands each piece of the answer to `onDelta` as it arrives (POST
 * /api/ai/chat/stream, newline-delimited JSON). Resolves with the rest of the reply; rejects like
 * any API call when the server refuses, or when the answer breaks off.
 */
export async function streamAssistant(
  body: BodyInput<typeof aiAssistantEndpoints.chatStream>,
  onDelta: (text: string) => void,
): Promise<Omit<ChatReply, 'response'>> {
  const token = getDataToken();
  const response = await fetch(aiAssistantEndpoints.chatStream.path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/x-ndjson',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok || !response.body) {
    const failure = (await response.json().catch(() => null)) as { message?: string; code?: string } | null;
    throw new ApiError(failure?.message ?? `HTTP ${response.status}`, {
      status: response.status,
      code: failure?.code,
    });
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    const lines = buffer.split('\n');
    buffer = done ? '' : (lines.pop() ?? '');
    for (const line of lines.filter((l) => l.trim())) {
      const event = JSON.parse(line) as ChatStreamEvent;
      if (event.type === 'delta') onDelta(event.text);
      else if (event.type === 'error')
        throw new ApiError(event.message, { status: 503, code: 'UNAVAILABLE' });
      else return { sessionId: event.sessionId, source: event.source, scenario: event.scenario };
    }
    if (done) throw new ApiError(aiAssistantEndpoints.chatStream.path, { status: 502 });
  }
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
