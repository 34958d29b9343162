import { CircleHelpIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useTranslation } from 'react-i18next';

/** Catalogue keys of the help topics, in the order shown. */
const TOPICS = [
  { title: 'planning:help.filters.title', text: 'planning:help.filters.text' },
  { title: 'planning:help.viewLevel.title', text: 'planning:help.viewLevel.text' },
  { title: 'planning:help.drillDown.title', text: 'planning:help.drillDown.text' },
  { title: 'planning:help.overrides.title', text: 'planning:help.overrides.text' },
  { title: 'planning:help.saving.title', text: 'planning:help.saving.text' },
  { title: 'planning:help.export.title', text: 'planning:help.export.text' },
  { title: 'planning:help.focusView.title', text: 'planning:help.focusView.text' },
] as const;

/** The page's help popover (spec §2: 96 units wide, scroll area at most 96 units high). */
export function PageHelp() {
  const { t } = useTranslation();
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t('planning:help.label')}>
          <CircleHelpIcon aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <h2 className="border-b border-border px-4 py-3 text-sm font-semibold">{t('planning:help.title')}</h2>
        <div
          className="max-h-96 overflow-y-auto px-4 py-3"
          tabIndex={0}
          aria-label={t('planning:help.topics')}
        >
          <dl className="flex flex-col gap-3 text-sm">
            {TOPICS.map((topic) => (
              <div key={topic.title}>
                <dt className="font-medium">{t(topic.title)}</dt>
                <dd className="text-muted-foreground">{t(topic.text)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </PopoverContent>
    </Popover>
  );
}
