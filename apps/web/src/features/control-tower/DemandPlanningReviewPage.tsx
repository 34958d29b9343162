import { BarChart3Icon, LineChartIcon, TableIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { PageHeading } from '@/features/shell/components/PageHeading';
import { MODULES } from '@/features/shell/modules';
import { PlaceholderPanel } from './components/PlaceholderPanel';
import { SegmentedControl } from './components/SegmentedControl';
import { WorksheetFilterBar } from './components/WorksheetFilterBar';

type WorksheetView = 'table' | 'chart';
/** Spec §9: scale options K, M, B; default M. */
type Scale = 'K' | 'M' | 'B';
type DataType = 'revenue' | 'cost';

const VIEW_OPTIONS = [
  { value: 'table', labelKey: 'controlTower:review.table' },
  { value: 'chart', labelKey: 'controlTower:review.chart' },
] as const;
const SCALE_LABEL_KEYS: Record<Scale, string> = {
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
  const [view, setView] = useState<WorksheetView>('table');
  const [scale, setScale] = useState<Scale>('M');
  const [dataType, setDataType] = useState<DataType>('revenue');
  const { t } = useTranslation();
  const scaleLabel = t(SCALE_LABEL_KEYS[scale]);

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title={t('controlTower:review.title')}
        subtitle={t('controlTower:review.subtitle')}
        badges={
          <Badge variant="outline">{`${t(MODULES.controlTower.nameKey)} ${MODULES.controlTower.version}`}</Badge>
        }
      />
      <Tabs defaultValue="review">
        <TabsList>
          <TabsTrigger value="review">{t('controlTower:review.reviewTab')}</TabsTrigger>
          <TabsTrigger value="drill-down">{t('controlTower:review.drillDownTab')}</TabsTrigger>
        </TabsList>
        <TabsContent value="review" className="flex flex-col gap-6">
          <Card>
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
                      value={dataType}
                      options={DATA_TYPE_OPTIONS}
                      onChange={setDataType}
                    />
                  )}
                  <SegmentedControl
                    label={t('controlTower:review.scale')}
                    value={scale}
                    options={SCALE_OPTIONS}
                    onChange={setScale}
                  />
                </div>
              </div>
              <WorksheetFilterBar />
            </CardContent>
          </Card>
          {view === 'table' ? (
            <PlaceholderPanel
              title={t(
                dataType === 'revenue'
                  ? 'controlTower:review.comparisonRevenue'
                  : 'controlTower:review.comparisonCost',
                { scale: scaleLabel },
              )}
              description={t('controlTower:review.comparisonDescription')}
              icon={TableIcon}
              message={t('controlTower:review.comparisonMessage')}
            />
          ) : (
            <PlaceholderPanel
              title={t('controlTower:review.chartTitle', { scale: scaleLabel })}
              description={t('controlTower:review.chartDescription')}
              icon={LineChartIcon}
              message={t('controlTower:review.chartMessage')}
            />
          )}
        </TabsContent>
        <TabsContent value="drill-down">
          <PlaceholderPanel
            title={t('controlTower:review.drillDownTab')}
            description={t('controlTower:review.drillDownDescription')}
            icon={BarChart3Icon}
            message={t('controlTower:review.drillDownMessage')}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
