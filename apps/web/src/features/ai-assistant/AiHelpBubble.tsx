import { HELP_CACHE_MS, HELP_RETRIES, type HelpContext, type HelpCurrentData } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircleIcon, RefreshCwIcon, SparklesIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { fetchHelpInsights } from './ai-assistant-api';
import { useAnswerLocale } from './hooks/useAnswerLocale';
import { useAiPageContext } from './hooks/useAiPageContext';
import { markHelpOpened, wasHelpOpened } from './utils/help-opened';

/** Spec §3: each help context's title. */
const TITLE_KEYS: Record<HelpContext, string> = {
  'forecast-override': 'ai:help.titles.forecastOverride',
  'category-selection': 'ai:help.titles.categorySelection',
  'business-unit-planning': 'ai:help.titles.businessUnitPlanning',
  'time-drill-down': 'ai:help.titles.timeDrillDown',
  'variance-analysis': 'ai:help.titles.varianceAnalysis',
  'data-validation': 'ai:help.titles.dataValidation',
  'excel-import': 'ai:help.titles.excelImport',
  'performance-metrics': 'ai:help.titles.performanceMetrics',
  'planning-workflow': 'ai:help.titles.planningWorkflow',
  'data-aggregation': 'ai:help.titles.dataAggregation',
  unknown: 'ai:help.titles.unknown',
};

const SECTIONS = [
  ['recommendations', 'ai:help.sections.recommendations'],
  ['nextSteps', 'ai:help.sections.nextSteps'],
  ['relatedConcepts', 'ai:help.sections.relatedConcepts'],
  ['troubleshooting', 'ai:help.sections.troubleshooting'],
] as const;

type AiHelpBubbleProps = { context: HelpContext; currentData?: HelpCurrentData };

/**
 * The AI help bubble (spec §4): closed → opening fetches the insight (cached 5 minutes, retried
 * once); loading, error with Try Again, data or empty; a pulsing dot until first opened; refresh.
 * Self-contained so a screen adds it with one line.
 */
export function AiHelpBubble({ context, currentData }: AiHelpBubbleProps) {
  const { t } = useTranslation();
  const page = useAiPageContext();
  const locale = useAnswerLocale();
  const [isOpen, setOpen] = useState(false);
  const [isNew, setNew] = useState(() => !wasHelpOpened(context));
  const data: HelpCurrentData = {
    ...(page?.filters ? { filters: page.filters } : {}),
    ...(page?.pendingChanges !== undefined ? { pendingChanges: page.pendingChanges } : {}),
    ...currentData,
  };
  const request = {
    context,
    currentData: data,
    ...(page?.viewLevel ? { viewLevel: page.viewLevel } : {}),
    ...(page?.drillDownType ? { drillDownType: page.drillDownType } : {}),
    locale,
  };
  const insight = useQuery({
    queryKey: ['ai-help', request],
    queryFn: ({ signal }) => fetchHelpInsights(request, signal),
    enabled: isOpen,
    staleTime: HELP_CACHE_MS,
    gcTime: HELP_CACHE_MS,
    retry: HELP_RETRIES,
  });
  const title = t(TITLE_KEYS[context]);

  const openChange = (open: boolean) => {
    setOpen(open);
    if (open && isNew) {
      markHelpOpened(context);
      setNew(false);
    }
  };

  const body = () => {
    if (insight.isPending || (insight.isFetching && !insight.data))
      return (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
          {t('ai:help.loading')}
        </p>
      );
    if (insight.isError)
      return (
        <div className="flex flex-col items-start gap-2 text-sm" role="alert">
          <p className="text-muted-foreground">{t('ai:help.error')}</p>
          <Button size="sm" variant="outline" onClick={() => void insight.refetch()}>
            {t('ai:help.tryAgain')}
          </Button>
        </div>
      );
    const help = insight.data;
    if (!help.summary && !help.explanation)
      return <p className="text-sm text-muted-foreground">{t('ai:help.empty')}</p>;
    return (
      <div className="flex flex-col gap-3 text-sm">
        <p className="font-medium">{help.summary}</p>
        <p className="text-muted-foreground">{help.explanation}</p>
        {SECTIONS.map(([field, key]) =>
          help[field].length > 0 ? (
            <section key={field}>
              <h4 className="mb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {t(key)}
              </h4>
              <ul className="flex list-disc flex-col gap-1 pl-4">
                {help[field].map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </section>
          ) : null,
        )}
      </div>
    );
  };

  return (
    <Popover open={isOpen} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={t('ai:help.open', { title })}
          title={t('ai:help.open', { title })}
        >
          <SparklesIcon aria-hidden className="text-primary" />
          {isNew && (
            <span className="absolute top-1.5 right-1.5 flex size-2" data-testid="ai-help-new">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-primary opacity-75" />
              <span className="relative inline-flex size-2 rounded-full bg-primary" />
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <div className="flex items-center gap-2 border-b border-border px-4 py-2">
          <SparklesIcon className="size-4 text-primary" aria-hidden />
          <h3 className="flex-1 text-sm font-semibold">{title}</h3>
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={t('ai:help.refresh')}
            title={t('ai:help.refresh')}
            disabled={insight.isFetching}
            onClick={() => void insight.refetch()}
          >
            <RefreshCwIcon className={insight.isFetching ? 'animate-spin' : ''} />
          </Button>
        </div>
        <div className="max-h-96 overflow-y-auto px-4 py-3">{body()}</div>
      </PopoverContent>
    </Popover>
  );
}
