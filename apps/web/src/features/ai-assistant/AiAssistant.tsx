import type { ChatContext } from '@ps/domain';
import { MessageCircleIcon } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { ChatDrawer } from './components/ChatDrawer';
import { useAiChat } from './hooks/useAiChat';
import { useAiPageContext } from './hooks/useAiPageContext';
import { useAnswerLocale } from './hooks/useAnswerLocale';

/**
 * The floating chat toggle (bottom right) and the drawer it opens (spec §2). Rendered in the app
 * layout's row, so the open drawer takes its 20rem from the page instead of covering it.
 */
export function AiAssistant() {
  const { t } = useTranslation();
  const location = useLocation();
  const page = useAiPageContext();
  const locale = useAnswerLocale();
  const pageContext = useCallback((): ChatContext => {
    const { pendingChanges: _pending, ...context } = page ?? { page: location.pathname };
    return { ...context, page: context.page || location.pathname, locale };
  }, [page, location.pathname, locale]);
  const chat = useAiChat(pageContext);
  return (
    <>
      {chat.isOpen && (
        <ChatDrawer
          messages={chat.messages}
          isPending={chat.isPending}
          onSend={chat.send}
          onReset={chat.reset}
          onClose={chat.toggle}
        />
      )}
      {!chat.isOpen && (
        <Button
          size="icon"
          onClick={chat.toggle}
          aria-expanded={false}
          aria-label={t('ai:toggle.open')}
          title={t('ai:toggle.open')}
          className="fixed right-4 bottom-4 z-40 size-12 rounded-full shadow-lg"
        >
          <MessageCircleIcon className="size-5" />
        </Button>
      )}
    </>
  );
}
