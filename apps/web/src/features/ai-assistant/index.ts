export { AiAssistant } from './AiAssistant';
export { AiHelpBubble } from './AiHelpBubble';
export { usePublishAiPageContext } from './hooks/useAiPageContext';
