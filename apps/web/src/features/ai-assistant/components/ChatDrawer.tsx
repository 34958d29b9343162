import {
  GREETING_SCENARIO,
  GREETING_SCENARIO_PROMPT,
  MAX_QUESTION_LENGTH,
  SUGGESTED_PROMPTS,
  isSendable,
  sendsOnKey,
} from '@ps/domain';
import { BotIcon, LoaderCircleIcon, RotateCcwIcon, SendIcon, SparklesIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import type { ChatMessage } from '../hooks/useAiChat';
import { AnswerText } from './AnswerText';
import { ScenarioActions } from './ScenarioActions';

/** The four suggested prompts (spec §9): sent in the analyst's language, labelled in the user's. */
const PROMPT_LABEL_KEYS = [
  'ai:prompts.accuracy',
  'ai:prompts.variance',
  'ai:prompts.overrides',
  'ai:prompts.actuals',
] as const;

type ChatDrawerProps = {
  messages: ChatMessage[];
  isPending: boolean;
  onSend: (question: string, shown?: string) => Promise<void>;
  onReset: () => void;
  onClose: () => void;
};

function MessageBody({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  switch (message.kind) {
    case 'greeting':
      return (
        <AnswerText
          text={`${t('ai:greeting.text')}\n\n${t('ai:greeting.scenario', {
            name: GREETING_SCENARIO.name,
            percent: GREETING_SCENARIO.percent,
          })}`}
        />
      );
    case 'apology':
      return <p>{t('ai:error.apology')}</p>;
    case 'text':
      return message.role === 'assistant' ? (
        <AnswerText text={message.content} />
      ) : (
        <p className="whitespace-pre-wrap">{message.content}</p>
      );
  }
}

/** The right-side drawer, 20rem wide, beside the page (spec §2). */
export function ChatDrawer({ messages, isPending, onSend, onReset, onClose }: ChatDrawerProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const endRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, isPending]);

  const send = (question: string, shown?: string) => {
    if (!isSendable(question) || isPending) return;
    if (!shown) setDraft('');
    void onSend(question, shown).then(() => inputRef.current?.focus());
  };

  return (
    <aside
      aria-label={t('ai:drawer.title')}
      className="flex h-full w-80 shrink-0 flex-col border-l border-border bg-card text-card-foreground"
    >
      <header className="flex items-center gap-2 border-b border-border px-3 py-2">
        <SparklesIcon className="size-4 text-primary" aria-hidden />
        <div className="min-w-0 flex-1">
          <h2 className="text-sm font-semibold">{t('ai:drawer.title')}</h2>
          <p className="text-xs text-muted-foreground">{t('ai:drawer.subtitle')}</p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('ai:drawer.reset')}
          title={t('ai:drawer.reset')}
          onClick={onReset}
          disabled={isPending}
        >
          <RotateCcwIcon />
        </Button>
        <Button variant="ghost" size="icon" aria-label={t('ai:drawer.close')} onClick={onClose}>
          <XIcon />
        </Button>
      </header>
      <div
        className="flex-1 overflow-y-auto px-3 py-3"
        role="log"
        aria-live="polite"
        aria-label={t('ai:drawer.conversation')}
      >
        <ol className="flex flex-col gap-3">
          {messages.map((message) => (
            <li
              key={message.id}
              data-testid="ai-message"
              className={cn(
                'rounded-lg px-3 py-2 text-sm',
                message.role === 'user'
                  ? 'ml-6 bg-primary text-primary-foreground'
                  : 'mr-2 bg-muted text-foreground',
              )}
            >
              <span className="sr-only">
                {message.role === 'user' ? t('ai:message.you') : t('ai:message.assistant')}
              </span>
              <MessageBody message={message} />
              {message.kind === 'greeting' && (
                <Button
                  size="sm"
                  variant="outline"
                  className="mt-2"
                  disabled={isPending}
                  onClick={() => send(GREETING_SCENARIO_PROMPT, t('ai:greeting.runScenario'))}
                >
                  <BotIcon />
                  {t('ai:greeting.runScenario')}
                </Button>
              )}
              {message.scenario && <ScenarioActions scenario={message.scenario} />}
            </li>
          ))}
          {isPending && messages.at(-1)?.role === 'user' && (
            <li
              className="mr-2 flex items-center gap-2 rounded-lg bg-muted px-3 py-2 text-sm text-muted-foreground"
              role="status"
            >
              <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
              {t('ai:thinking')}
            </li>
          )}
        </ol>
        <div ref={endRef} />
      </div>
      {messages.length <= 1 && (
        <div className="flex flex-col gap-1.5 border-t border-border px-3 py-2">
          <p className="text-xs font-medium text-muted-foreground">{t('ai:prompts.title')}</p>
          {SUGGESTED_PROMPTS.map((prompt, index) => (
            <Button
              key={prompt}
              size="sm"
              variant="outline"
              className="h-auto justify-start py-1.5 text-left whitespace-normal"
              disabled={isPending}
              onClick={() => send(prompt, t(PROMPT_LABEL_KEYS[index]!))}
            >
              {t(PROMPT_LABEL_KEYS[index]!)}
            </Button>
          ))}
        </div>
      )}
      <form
        className="flex items-end gap-2 border-t border-border px-3 py-2"
        onSubmit={(event) => {
          event.preventDefault();
          send(draft);
        }}
      >
        <textarea
          ref={inputRef}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (
              sendsOnKey({
                key: event.key,
                shiftKey: event.shiftKey,
                isComposing: event.nativeEvent.isComposing,
              })
            ) {
              event.preventDefault();
              send(draft);
            }
          }}
          disabled={isPending}
          rows={2}
          maxLength={MAX_QUESTION_LENGTH}
          aria-label={t('ai:input.label')}
          placeholder={t('ai:input.placeholder')}
          className="min-h-10 flex-1 resize-none rounded-md border border-border bg-background px-2 py-1.5 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
        />
        <Button
          type="submit"
          size="icon"
          aria-label={t('ai:input.send')}
          disabled={isPending || !isSendable(draft)}
        >
          <SendIcon />
        </Button>
      </form>
    </aside>
  );
}
