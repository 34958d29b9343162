import { BarChart3Icon, LineChartIcon, TableIcon } from 'lucide-react';
import { useState } from 'react';
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
  { value: 'table', label: 'Table' },
  { value: 'chart', label: 'Chart' },
] as const;
const SCALE_OPTIONS = [
  { value: 'K', label: '$K' },
  { value: 'M', label: '$M' },
  { value: 'B', label: '$B' },
] as const;
const DATA_TYPE_OPTIONS = [
  { value: 'revenue', label: 'Revenue' },
  { value: 'cost', label: 'Cost' },
] as const;

/** Control tower: Demand Planning Review Worksheet (spec §2), the default control tower screen. */
export default function DemandPlanningReviewPage() {
  const [view, setView] = useState<WorksheetView>('table');
  const [scale, setScale] = useState<Scale>('M');
  const [dataType, setDataType] = useState<DataType>('revenue');

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading
        title="Demand Planning Review Worksheet"
        subtitle="Cycle-to-Cycle Forecast Analysis & Management Visibility"
        badges={
          <Badge variant="outline">{`${MODULES.controlTower.name} ${MODULES.controlTower.version}`}</Badge>
        }
      />
      <Tabs defaultValue="review">
        <TabsList>
          <TabsTrigger value="review">Demand Planning Review</TabsTrigger>
          <TabsTrigger value="drill-down">Product ID Drill Down</TabsTrigger>
        </TabsList>
        <TabsContent value="review" className="flex flex-col gap-6">
          <Card>
            <CardContent className="flex flex-col gap-4 pt-6">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <SegmentedControl label="View" value={view} options={VIEW_OPTIONS} onChange={setView} />
                <div className="flex flex-wrap items-center gap-3">
                  {view === 'table' && (
                    <SegmentedControl
                      label="Data type"
                      value={dataType}
                      options={DATA_TYPE_OPTIONS}
                      onChange={setDataType}
                    />
                  )}
                  <SegmentedControl label="Scale" value={scale} options={SCALE_OPTIONS} onChange={setScale} />
                </div>
              </div>
              <WorksheetFilterBar />
            </CardContent>
          </Card>
          {view === 'table' ? (
            <PlaceholderPanel
              title={`Plan Comparison (${dataType === 'revenue' ? 'Revenue' : 'Cost'}, $${scale})`}
              description="CTC change, growth and plan-versus-plan rows by quarter"
              icon={TableIcon}
              message="The worksheet fills in once published plan cycles exist to compare quarter by quarter."
            />
          ) : (
            <PlaceholderPanel
              title={`Quarterly Revenue ($${scale})`}
              description="Actual Booking, Prelim, Final, Marketing and P1 Final demand plans"
              icon={LineChartIcon}
              message="Charts appear once published plan cycles exist to compare quarter by quarter."
            />
          )}
        </TabsContent>
        <TabsContent value="drill-down">
          <PlaceholderPanel
            title="Product ID Drill Down"
            description="The review worksheet for a single product"
            icon={BarChart3Icon}
            message="Choose a product once the worksheet has plan data to drill into."
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
