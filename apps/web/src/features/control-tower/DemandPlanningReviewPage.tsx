import type { Measure, MoneyScale } from '@ps/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useFormatters } from '@/lib/settings/useFormatters';
import { PageHeading } from '@/components/PageHeading';
import { MODULES } from '@/features/shell';
import { controlTowerKeys, fetchWorksheet, fetchWorksheetFilters } from './api/control-tower.api';
import { CtcSummary } from './components/CtcSummary';
import { DeltaTracker } from './components/DeltaTracker';
import { PlanComparisonGrid } from './components/PlanComparisonGrid';
import { ProductDrillDown } from './components/ProductDrillDown';
import { SegmentedControl } from './components/SegmentedControl';
import { WorksheetCharts } from './components/WorksheetCharts';
import { firstSelection, WorksheetFilterBar, type WorksheetSelection } from './components/WorksheetFilterBar';

type WorksheetView = 'table' | 'chart';

const VIEW_OPTIONS = [
  { value: 'table', labelKey: 'controlTower:review.table' },
  { value: 'chart', labelKey: 'controlTower:review.chart' },
] as const;
const SCALE_LABEL_KEYS: Record<MoneyScale, string> = {
  K: 'controlTower:review.scaleK',
  M: 'controlTower:review.scaleM',
  B: 'controlTower:review.scaleB',
};
const SCALE_OPTIONS = (['K', 'M', 'B'] as const).map((value) => ({
  value,
  labelKey: SCALE_LABEL_KEYS[value],
}));
const DATA_TYPE_OPTIONS = [
  { value: 'revenue', labelKey: 'controlTower:review.revenue' },
  { value: 'cost', labelKey: 'controlTower:review.cost' },
] as const;

/** Control tower: Demand Planning Review Worksheet (spec §2), the default control tower screen. */
export default function DemandPlanningReviewPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [params] = useSearchParams();
  const linkedPid = params.get('pid') ?? undefined;
  const [tab, setTab] = useState(linkedPid ? 'drill-down' : 'review');
  const [view, setView] = useState<WorksheetView>('table');
  const [scale, setScale] = useState<MoneyScale>('M');
  const [measure, setMeasure] = useState<Measure>('revenue');
  const [chosen, setChosen] = useState<WorksheetSelection | null>(null);
  const filters = useQuery({
    queryKey: controlTowerKeys.filters(),
    queryFn: ({ signal }) => fetchWorksheetFilters(signal),
  });
  const selection = chosen ?? (filters.data ? firstSelection(filters.data) : null);
  const query = selection
    ? {
        company: selection.company,
        businessUnit: selection.businessUnit,
        productFamily: selection.productFamily,
      }
    : null;
  const sheet = useQuery({
    queryKey: controlTowerKeys.worksheet(query ?? { company: '', businessUnit: '' }),
    queryFn: ({ signal }) => fetchWorksheet(query!, signal),
    enabled: query !== null && query.company !== '',
  });
  const toggleMeasure = () => setMeasure((m) => (m === 'revenue' ? 'cost' : 'revenue'));
  const { symbol } = format;
  const scaleLabel = t(SCALE_LABEL_KEYS[scale], { symbol });
  const data = sheet.data;
  const cycleNote = data?.currentCycle
    ? t('controlTower:review.cycleNote', {
        current: data.currentCycle.label,
        date: format.date(data.currentCycle.publishedAt),
        previous: data.previousCycle?.label ?? '-',
      })
    : t('controlTower:review.noCycle');

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={t('controlTower:review.title')}
        subtitle={t('controlTower:review.subtitle')}
        badges={
          <Badge variant="outline">{`${t(MODULES.controlTower.nameKey)} ${MODULES.controlTower.version}`}</Badge>
        }
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="review">{t('controlTower:review.reviewTab')}</TabsTrigger>
          <TabsTrigger value="drill-down">{t('controlTower:review.drillDownTab')}</TabsTrigger>
        </TabsList>
        <Card className="mt-4">
          <CardContent className="flex flex-col gap-4 pt-6">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <SegmentedControl
                label={t('controlTower:review.view')}
                value={view}
                options={VIEW_OPTIONS}
                onChange={setView}
              />
              <div className="flex flex-wrap items-center gap-3">
                {view === 'table' && (
                  <SegmentedControl
                    label={t('controlTower:review.dataType')}
                    value={measure}
                    options={DATA_TYPE_OPTIONS}
                    onChange={setMeasure}
                  />
                )}
                <SegmentedControl
                  label={t('controlTower:review.scale')}
                  value={scale}
                  options={SCALE_OPTIONS}
                  labelParams={{ symbol }}
                  onChange={setScale}
                />
              </div>
            </div>
            <WorksheetFilterBar filters={filters.data} value={selection} onChange={setChosen} />
            <p className="text-xs text-muted-foreground">{cycleNote}</p>
          </CardContent>
        </Card>
        <TabsContent value="review" className="mt-4 flex flex-col gap-6">
          {!data ? (
            <p className="p-6 text-sm text-muted-foreground">{t('common:loading')}</p>
          ) : view === 'table' ? (
            <>
              <CtcSummary quarters={data.quarters} currentQuarter={data.currentQuarter} scale={scale} />
              <PlanComparisonGrid
                quarters={data.quarters}
                measure={measure}
                scale={scale}
                onToggleMeasure={toggleMeasure}
                title={t(
                  measure === 'revenue'
                    ? 'controlTower:review.comparisonRevenue'
                    : 'controlTower:review.comparisonCost',
                  {
                    scale: scaleLabel,
                  },
                )}
              />
              <DeltaTracker cells={data.tracker} />
            </>
          ) : (
            <WorksheetCharts quarters={data.quarters} currentQuarter={data.currentQuarter} scale={scale} />
          )}
        </TabsContent>
        <TabsContent value="drill-down" className="mt-4">
          {selection && (
            <ProductDrillDown
              company={selection.company}
              scale={scale}
              measure={measure}
              onToggleMeasure={toggleMeasure}
              initialPid={linkedPid}
            />
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
