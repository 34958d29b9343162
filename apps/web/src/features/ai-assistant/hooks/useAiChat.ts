import { isSendable, wrapQuestion, type ChatContext, type ScenarioPreview } from '@ps/domain';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { streamAssistant } from '../ai-assistant-api';

/** Spec §3: a chat message; the greeting is written in the user's language when shown. */
export type ChatMessage = {
  id: string;
  role: 'user' | 'assistant';
  kind: 'greeting' | 'text' | 'apology';
  content: string;
  timestamp: string;
  context: string;
  scenario: ScenarioPreview | null;
};

const greeting = (): ChatMessage => ({
  id: crypto.randomUUID(),
  role: 'assistant',
  kind: 'greeting',
  content: '',
  timestamp: new Date().toISOString(),
  context: '',
  scenario: null,
});

/**
 * The chat panel's states (spec §4): hidden/shown; a greeting on first show; a new session id at
 * every opening; pending while a reply is awaited; reset back to the greeting alone.
 */
export function useAiChat(pageContext: () => ChatContext) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [isPending, setPending] = useState(false);
  const sessionId = useRef<string>(crypto.randomUUID());

  const toggle = useCallback(() => {
    setOpen((open) => {
      if (!open) {
        sessionId.current = crypto.randomUUID();
        setMessages((current) => (current.length === 0 ? [greeting()] : current));
      }
      return !open;
    });
  }, []);

  const reset = useCallback(() => setMessages([greeting()]), []);

  /** Sends `question`; `shown` is what the user's bubble reads when it differs (a translated prompt). */
  const send = useCallback(
    async (question: string, shown?: string) => {
      if (!isSendable(question) || isPending) return;
      const context = pageContext();
      const at = new Date().toISOString();
      const contextText = context.page;
      setMessages((current) => [
        ...current,
        {
          id: crypto.randomUUID(),
          role: 'user',
          kind: 'text',
          content: (shown ?? question).trim(),
          timestamp: at,
          context: contextText,
          scenario: null,
        },
      ]);
      setPending(true);
      try {
        const replyId = crypto.randomUUID();
        let hasStarted = false;
        // The answer shows as it arrives: the first piece adds the message, the next ones extend it.
        const reply = await streamAssistant(
          { message: wrapQuestion(question, context), sessionId: sessionId.current, context },
          (delta) => {
            const isFirst = !hasStarted;
            hasStarted = true;
            setMessages((current) =>
              isFirst
                ? [
                    ...current,
                    {
                      id: replyId,
                      role: 'assistant',
                      kind: 'text',
                      content: delta,
                      timestamp: new Date().toISOString(),
                      context: contextText,
                      scenario: null,
                    },
                  ]
                : current.map((m) => (m.id === replyId ? { ...m, content: m.content + delta } : m)),
            );
          },
        );
        if (reply.scenario) {
          const { scenario } = reply;
          setMessages((current) => current.map((m) => (m.id === replyId ? { ...m, scenario } : m)));
        }
      } catch (error) {
        const isRateLimited = error instanceof ApiError && error.status === 429;
        toast({
          title: t('ai:error.title'),
          description: isRateLimited ? t('ai:error.rateLimited') : t('ai:error.description'),
          variant: 'destructive',
        });
        setMessages((current) => [
          ...current,
          {
            id: crypto.randomUUID(),
            role: 'assistant',
            kind: 'apology',
            content: '',
            timestamp: new Date().toISOString(),
            context: contextText,
            scenario: null,
          },
        ]);
      } finally {
        setPending(false);
      }
    },
    [isPending, pageContext, t],
  );

  return { isOpen, toggle, messages, isPending, send, reset };
}
