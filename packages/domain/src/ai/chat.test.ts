import { describe, expect, it } from 'vitest';
import {
  MAX_QUESTION_LENGTH,
  ZChatRequest,
  isSendable,
  sendsOnKey,
  unwrapQuestion,
  wrapQuestion,
} from './chat';

describe('chat input rules', () => {
  it('does not send empty, blank or too long messages', () => {
    expect(isSendable('')).toBe(false);
    expect(isSendable(' \n\t ')).toBe(false);
    expect(isSendable('Totals?')).toBe(true);
    expect(isSendable('x'.repeat(MAX_QUESTION_LENGTH + 1))).toBe(false);
  });

  it('sends on Enter, not on Shift+Enter nor while composing', () => {
    expect(sendsOnKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(sendsOnKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(sendsOnKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(sendsOnKey({ key: 'a', shiftKey: false })).toBe(false);
  });

  it('wraps a question with its page context and gets it back', () => {
    const context = { page: 'demand-planning', viewLevel: 'sku' as const, filters: { bu: ['Pumps & Flow'] } };
    const message = wrapQuestion('  Totals for Q3? ', context);
    expect(message).toBe(
      '[Context] Page: demand-planning; View level: sku; BU: Pumps & Flow\n[Question] Totals for Q3?',
    );
    expect(unwrapQuestion(message)).toBe('Totals for Q3?');
    expect(unwrapQuestion('plain question')).toBe('plain question');
    expect(
      ZChatRequest.safeParse({ message, sessionId: '0b7d4c1e-8f5a-4e2b-9c3d-1a2b3c4d5e6f', context }).success,
    ).toBe(true);
  });
});
