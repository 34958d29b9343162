import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './0001-initial-schema';
import * as planningGrid from './0002-planning-grid';
import * as forecastRuns from './0003-forecast-runs';
import * as rebuildDemandTotals from './0004-rebuild-demand-totals';
import * as rollUpTriggerPlans from './0005-roll-up-trigger-plans';
import * as appSecrets from './0006-app-secrets';
import * as signInStorage from './0007-sign-in-storage';
import * as annotationsByProduct from './0008-annotations-by-product';
import * as planCycles from './0009-plan-cycles';
import * as spreadsheetImport from './0010-spreadsheet-import';
import * as controlTower from './0011-control-tower';
import * as aiRateLimits from './0012-ai-rate-limits';
import * as inventoryPlanning from './0013-inventory-planning';
import * as networkOptimisation from './0014-network-optimisation';
import * as gridSpreading from './0015-grid-spreading';
import * as forecastMembers from './0016-forecast-members';
import * as settingsRatesNotifications from './0017-settings-rates-notifications';
import * as controlTowerSpeed from './0018-control-tower-speed';
import * as inventoryLeadTimeVariability from './0021-inventory-lead-time-variability';
import * as gridHistoryAndTimePhased from './0023-grid-history-and-time-phased';
import * as forecastRunChunks from './0024-forecast-run-chunks';
import * as rollUpDeltas from './0025-roll-up-deltas';
import * as recordChangeEvents from './0026-record-change-events';
import * as accuracyByProduct from './0028-accuracy-by-product';
import * as importJobs from './0030-import-jobs';
import * as ensembleListValues from './0031-ensemble-list-values';
import * as productSortExtremes from './0032-product-sort-extremes';
import * as annotationDigest from './0033-annotation-digest';
import * as sliceTotals from './0034-slice-totals';
import * as extremesMarks from './0035-extremes-marks';
import * as productPageWalk from './0036-product-page-walk';
import * as extremesBoundIndexes from './0038-extremes-bound-indexes';
import * as overriddenRecords from './0039-overridden-records';
import * as extremesRefresh from './0040-extremes-refresh';
import * as extremesLockPerSchema from './0041-extremes-lock-per-schema';
import * as extremesRefreshGenericPlan from './0042-extremes-refresh-generic-plan';
import * as overriddenRecordFigures from './0043-overridden-record-figures';
import * as weeklyAnnotationDigest from './0044-weekly-annotation-digest';
import * as boundedExtremesMarks from './0045-bounded-extremes-marks';
import * as businessUnitWeekAnnotations from './0046-business-unit-week-annotations';
import * as planHorizon from './0047-plan-horizon';
import * as dataLoads from './0050-data-loads';
import * as planningCycle from './0055-planning-cycle';
import * as bulkWriteSwitch from './0057-bulk-write-switch';
import * as overrideReasonPolicy from './0063-override-reason-policy';
import * as inventoryLoads from './0064-inventory-loads';
import * as publishedPlanRows from './0067-published-plan-rows';
import * as forecastQuantiles from './0070-forecast-quantiles';
import * as inventorySafetyStock from './0071-inventory-safety-stock';
import * as savedViews from './0073-saved-views';
import * as salesHistorySetChecked from './0076-sales-history-set-checked';
import * as importUndo from './0077-import-undo';
import * as notesSkipWeekMaths from './0078-notes-skip-week-maths';
import * as forecastRunGlobalMember from './0085-forecast-run-global-member';
import * as accuracyOfWrittenWeeks from './0088-accuracy-of-written-weeks';
import * as notesFromRecords from './0093-notes-from-records';
import * as readModelGenerated from './0100-read-model-generated';
import * as productWalkByTotals from './0130-product-walk-by-totals';

/** Versioned migrations, in order. Add new ones at the end; never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
  '0002-planning-grid': planningGrid,
  '0003-forecast-runs': forecastRuns,
  '0004-rebuild-demand-totals': rebuildDemandTotals,
  '0005-roll-up-trigger-plans': rollUpTriggerPlans,
  '0006-app-secrets': appSecrets,
  '0007-sign-in-storage': signInStorage,
  '0008-annotations-by-product': annotationsByProduct,
  '0009-plan-cycles': planCycles,
  '0010-spreadsheet-import': spreadsheetImport,
  '0011-control-tower': controlTower,
  '0012-ai-rate-limits': aiRateLimits,
  '0013-inventory-planning': inventoryPlanning,
  '0014-network-optimisation': networkOptimisation,
  '0015-grid-spreading': gridSpreading,
  '0016-forecast-members': forecastMembers,
  '0017-settings-rates-notifications': settingsRatesNotifications,
  '0018-control-tower-speed': controlTowerSpeed,
  '0021-inventory-lead-time-variability': inventoryLeadTimeVariability,
  '0023-grid-history-and-time-phased': gridHistoryAndTimePhased,
  '0024-forecast-run-chunks': forecastRunChunks,
  '0025-roll-up-deltas': rollUpDeltas,
  '0026-record-change-events': recordChangeEvents,
  '0028-accuracy-by-product': accuracyByProduct,
  '0030-import-jobs': importJobs,
  '0031-ensemble-list-values': ensembleListValues,
  '0032-product-sort-extremes': productSortExtremes,
  '0033-annotation-digest': annotationDigest,
  '0034-slice-totals': sliceTotals,
  '0035-extremes-marks': extremesMarks,
  '0036-product-page-walk': productPageWalk,
  '0038-extremes-bound-indexes': extremesBoundIndexes,
  '0039-overridden-records': overriddenRecords,
  '0040-extremes-refresh': extremesRefresh,
  '0041-extremes-lock-per-schema': extremesLockPerSchema,
  '0042-extremes-refresh-generic-plan': extremesRefreshGenericPlan,
  '0043-overridden-record-figures': overriddenRecordFigures,
  '0044-weekly-annotation-digest': weeklyAnnotationDigest,
  '0045-bounded-extremes-marks': boundedExtremesMarks,
  '0046-business-unit-week-annotations': businessUnitWeekAnnotations,
  '0047-plan-horizon': planHorizon,
  '0050-data-loads': dataLoads,
  '0055-planning-cycle': planningCycle,
  '0057-bulk-write-switch': bulkWriteSwitch,
  '0063-override-reason-policy': overrideReasonPolicy,
  '0064-inventory-loads': inventoryLoads,
  '0067-published-plan-rows': publishedPlanRows,
  '0070-forecast-quantiles': forecastQuantiles,
  '0071-inventory-safety-stock': inventorySafetyStock,
  '0073-saved-views': savedViews,
  '0076-sales-history-set-checked': salesHistorySetChecked,
  '0077-import-undo': importUndo,
  '0078-notes-skip-week-maths': notesSkipWeekMaths,
  '0085-forecast-run-global-member': forecastRunGlobalMember,
  '0088-accuracy-of-written-weeks': accuracyOfWrittenWeeks,
  '0093-notes-from-records': notesFromRecords,
  '0100-read-model-generated': readModelGenerated,
  '0130-product-walk-by-totals': productWalkByTotals,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
