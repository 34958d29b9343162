import { CircleHelpIcon } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

/** Header help: what each area of the suite is for and how to move around. */
const strong = { strong: <strong className="text-foreground" /> };

export function HelpButton() {
  const { t } = useTranslation();
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t('shell:help.label')}>
          <CircleHelpIcon aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96">
        <h2 className="mb-2 text-sm font-semibold">{t('shell:help.title')}</h2>
        <ul className="flex list-disc flex-col gap-2 pl-4 text-sm text-muted-foreground">
          <li>
            <Trans i18nKey="shell:help.demandPlanning" components={strong} />
          </li>
          <li>
            <Trans i18nKey="shell:help.controlTower" components={strong} />
          </li>
          <li>
            <Trans i18nKey="shell:help.settings" components={strong} />
          </li>
          <li>{t('shell:help.sidebar')}</li>
        </ul>
      </PopoverContent>
    </Popover>
  );
}
