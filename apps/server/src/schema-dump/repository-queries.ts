import type { ClientId, DrillDown, ViewLevel } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { AccessScope } from '../lib/access';
import * as aiAssistant from '../modules/ai-assistant/ai-assistant.repository';
import * as controlTower from '../modules/control-tower/control-tower.repository';
import * as cycle from '../modules/cycle/cycle.repository';
import * as dataLoads from '../modules/data-loads/data-loads.repository';
import * as demandRecordSpread from '../modules/demand-records/demand-record-spread.repository';
import * as gridExports from '../modules/exports/exports.repository';
import * as inventoryLoads from '../modules/data-loads/inventory-loads.repository';
import * as exchangeRates from '../modules/exchange-rates/exchange-rates.repository';
import * as forecastRuns from '../modules/forecast-runs/forecast-run.repository';
import * as imports from '../modules/imports/imports.repository';
import * as inventory from '../modules/inventory/inventory.repository';
import * as optimisation from '../modules/optimisation/optimisation.repository';
import * as planningPolicy from '../modules/demand-records/planning-policy.repository';
import * as planCycles from '../modules/plan-cycles/plan-cycle.repository';
import * as publishedPlan from '../modules/plan-cycles/published-plan.repository';
import * as dashboard from '../modules/dashboard/dashboard.repository';
import * as demandRecords from '../modules/demand-records/demand-record.repository';
import * as horizon from '../modules/horizon/horizon.repository';
import * as loginThrottle from '../modules/auth/login-throttle.repository';
import * as notifications from '../modules/notifications/notifications.repository';
import * as providerStorage from '../modules/auth/provider-storage.repository';
import { SavedViewsRepository } from '../modules/saved-views/saved-views.repository';
import * as userSettings from '../modules/user-settings/user-settings.repository';
import * as planningGrid from '../modules/planning-grid/planning-grid.repository';
import * as gridAnnotations from '../modules/planning-grid/planning-grid-annotations.repository';
import * as gridOptions from '../modules/planning-grid/planning-grid-options.repository';
import * as sortExtremes from '../modules/planning-grid/sort-extremes.repository';
import * as sortedPages from '../modules/planning-grid/sorted-pages.repository';
import * as timePhased from '../modules/planning-grid/time-phased.repository';
import type { GridFilters } from '../modules/planning-grid/planning-grid.sql';
import { recordingDatabase } from './recording-dialect';

type Db = Kysely<Database>;
/** One call of a repository with placeholder arguments; its SQL is what the file shows. */
type QueryCall = (db: Db) => Promise<unknown>;

const CLIENTS: readonly ClientId[] = ['internal'];
const SCOPE: AccessScope = {
  userId: 'user',
  userName: 'User',
  email: 'user@example.com',
  groups: [],
  clientIds: CLIENTS,
  canWrite: true,
  isAdmin: true,
};
const PID = 'P-1';
const WEEK = '2026-01-04';

/** The grid's filters as most pages send them: the caller's clients, every week. */
const FILTERS: GridFilters = { clientIds: CLIENTS };
/** Filtered by a family from the filter bar. */
const FAMILY_FILTERS: GridFilters = { clientIds: CLIENTS, pf: ['Family A'] };
/** A text search from the search box. */
const SEARCH_FILTERS: GridFilters = { clientIds: CLIENTS, search: 'pump' };
/** Some weeks only (a quarter), where the per-product counts and extremes do not apply. */
const WEEK_FILTERS: GridFilters = { clientIds: CLIENTS, weeks: { from: WEEK, to: '2026-03-29' } };
/** The grid's default page. */
const PAGE = { offset: 0, limit: 100 } as const;
/** The products a figure-sorted page narrows to (sort-extremes.repository.ts). */
const CANDIDATES = ['P-1', 'P-2'];
/** A page's roll-up groups, standing for the statement a page or a saved cell's row wraps. */
const PAGE_GROUPS = sql`select 'Family A'::text as g, '2026-01-04'::text as k`;

/** The notes of cells on screen at a view level and drill-down (the period span differs by drill-down). */
const pageNotes = (db: Db, viewLevel: ViewLevel, drillDown: DrillDown) =>
  gridAnnotations.cellNotes(db, { viewLevel, drillDown, filters: FILTERS }, [
    { group: 'Family A', periodKey: WEEK },
  ]);

/**
 * The repositories whose SQL is checked in (apps/server/src/queries/<name>.sql) and, per
 * repository, the calls that show its queries. Add a call when a repository gains a query.
 */
export const REPOSITORY_QUERIES: Record<string, Record<string, QueryCall>> = {
  'ai-assistant.repository': {
    productExists: (db) => aiAssistant.productExists(db, CLIENTS, PID),
    dataWindow: (db) => aiAssistant.dataWindow(db, CLIENTS),
    accuracyFingerprint: (db) => aiAssistant.accuracyFingerprint(db),
    latestVersions: (db) => aiAssistant.latestVersions(db, CLIENTS),
  },
  'control-tower.repository': {
    filterOptions: (db) => controlTower.filterOptions(db, CLIENTS),
    companyPlanQuarters: (db) => controlTower.companyPlanQuarters(db, 'internal'),
    latestCycles: (db) => controlTower.latestCycles(db, CLIENTS),
  },
  'cycle.repository': {
    findSchedule: (db) => cycle.findSchedule(db),
    findRunningRun: (db) => cycle.findRunningRun(db),
    findRun: (db) => cycle.findRun(db, 1),
    latestRunId: (db) => cycle.latestRunId(db),
    listRecentRuns: (db) => cycle.listRecentRuns(db, 10),
    listSteps: (db) => cycle.listSteps(db, [1]),
    knownPids: (db) => cycle.knownPids(db, [PID]),
  },
  'data-loads.repository': {
    findLoad: (db) => dataLoads.findLoad(db, 1),
    latestLoads: (db) => dataLoads.latestLoads(db, 10),
  },
  'dashboard.repository': {
    dashboardFigures: (db) =>
      dashboard.dashboardFigures(
        db,
        { clientIds: CLIENTS },
        { currentWeek: WEEK, quarters: ['2026-Q1'], quarter: '2026-Q1' },
      ),
    summaryFigures: (db) =>
      dashboard.summaryFigures(db, { clientIds: CLIENTS }, { startOfToday: new Date(0) }),
  },
  'demand-record.repository': {
    listDemandRecords: (db) =>
      demandRecords.listDemandRecords(db, { filters: { clientIds: CLIENTS }, limit: 100 }),
    findDemandRecord: (db) =>
      demandRecords.findDemandRecord(db, { pid: PID, weekStart: WEEK }, { clientIds: CLIENTS }),
    demandRecordExists: (db) => demandRecords.demandRecordExists(db, { pid: PID, weekStart: WEEK }),
    findProduct: (db) => demandRecords.findProduct(db, PID),
  },
  'demand-record-spread.repository': {
    findCellRecordsFamilyQuarter: (db) =>
      demandRecordSpread.findCellRecords(
        db,
        {
          viewLevel: 'category',
          drillDown: 'quarterly',
          group: 'Family A',
          periodKey: '2026-Q1',
          filters: FILTERS,
        },
        { forUpdate: true },
      ),
    findCellRecordsProductWeek: (db) =>
      demandRecordSpread.findCellRecords(
        db,
        { viewLevel: 'sku', drillDown: 'weekly', group: PID, periodKey: WEEK, filters: FILTERS },
        { forUpdate: false },
      ),
    setLocks: (db) =>
      db.transaction().execute((trx) =>
        demandRecordSpread.setLocks(trx, [{ pid: PID, weekStart: WEEK }], {
          locked: true,
          by: 'user',
          clientIds: CLIENTS,
        }),
      ),
    recordHistory: (db) => demandRecordSpread.recordHistory(db, { pid: PID, weekStart: WEEK }, CLIENTS),
    lastSaveAudit: (db) => demandRecordSpread.lastSaveAudit(db, 'user', CLIENTS),
  },
  'exchange-rates.repository': {
    listRates: (db) => exchangeRates.listRates(db),
    listChanges: (db) => exchangeRates.listChanges(db, 20),
  },
  'exports.repository': {
    productKeysAfter: (db) => gridExports.productKeysAfter(db, FILTERS, PID, 500),
    countProducts: (db) => gridExports.countProducts(db, FILTERS),
    recordsOfProducts: (db) =>
      gridExports.recordsOfProducts(db, CANDIDATES, {
        hasData: true,
        filters: { weeks: WEEK_FILTERS.weeks },
      }),
    productsOf: (db) => gridExports.productsOf(db, CANDIDATES),
    savedLocale: (db) => gridExports.savedLocale(db, 'user'),
    weeksOf: (db) => gridExports.weeksOf(db, CANDIDATES, WEEK, '2026-03-29'),
  },
  'forecast-run.repository': {
    findRunningRun: (db) => forecastRuns.findRunningRun(db),
    findRun: (db) => forecastRuns.findRun(db, 1),
    listRecentRuns: (db) => forecastRuns.listRecentRuns(db, 10),
    failOrphanedRuns: (db) => forecastRuns.failOrphanedRuns(db),
  },
  'horizon.repository': {
    readHorizon: (db) => horizon.readHorizon(db),
    claimRoll: (db) => horizon.claimRoll(db, WEEK, 104),
    releaseRoll: (db) => horizon.releaseRoll(db),
    productIds: (db) => horizon.productIds(db),
  },
  'imports.repository': {
    findImport: (db) => imports.findImport(db, 1),
    failOrphanedImports: (db) => imports.failOrphanedImports(db),
  },
  'inventory-loads.repository': {
    checkLeadTimes: (db) => db.transaction().execute((trx) => inventoryLoads.checkLeadTimes(trx)),
    applyLeadTimes: (db) =>
      db.transaction().execute((trx) => inventoryLoads.applyLeadTimes(trx, { by: 'user' })),
    checkPositions: (db) =>
      db.transaction().execute((trx) => inventoryLoads.checkPositions(trx, { today: '2026-01-07' })),
    applyPositions: (db) => db.transaction().execute((trx) => inventoryLoads.applyPositions(trx)),
    checkOpenOrders: (db) => db.transaction().execute((trx) => inventoryLoads.checkOpenOrders(trx)),
    applyOpenOrders: (db) => db.transaction().execute((trx) => inventoryLoads.applyOpenOrders(trx)),
  },
  'inventory.repository': {
    policyRows: (db) => inventory.policyRows(db),
    latestNetworkPlan: (db) => inventory.latestNetworkPlan(db),
  },
  'login-throttle.repository': {
    countSignInFailures: (db) => loginThrottle.countSignInFailures(db, 'user@example.com'),
    clearSignInFailures: (db) => loginThrottle.clearSignInFailures(db, 'user@example.com'),
  },
  'notifications.repository': {
    listNotifications: (db) => notifications.listNotifications(db, 'user', 20),
    markRead: (db) => notifications.markRead(db, 'user', [1]),
    usersWithDueDigest: (db) => notifications.usersWithDueDigest(db, 60),
    claimDigest: (db) => notifications.claimDigest(db, 'user'),
    removeFromOutbox: (db) => notifications.removeFromOutbox(db, [1]),
  },
  'optimisation.repository': {
    loadNetwork: (db) => optimisation.loadNetwork(db),
    findDc: (db) => optimisation.findDc(db, 1),
    plantExists: (db) => optimisation.plantExists(db, 1),
    readPenalty: (db) => optimisation.readPenalty(db),
    listScenarios: (db) => optimisation.listScenarios(db),
    findScenario: (db) => optimisation.findScenario(db, 1),
    findRun: (db) => optimisation.findRun(db, 1),
  },
  'plan-cycle.repository': {
    findRunningForecast: (db) => planCycles.findRunningForecast(db, CLIENTS),
    finalPlanTotals: (db) => planCycles.finalPlanTotals(db, CLIENTS),
    listPlanVersions: (db) => planCycles.listPlanVersions(db, CLIENTS),
  },
  'published-plan.repository': {
    keepPublishedFigures: (db) =>
      publishedPlan.keepPublishedFigures(db, { id: 1, clientId: 'internal' }, WEEK),
    versionOf: (db) => publishedPlan.versionOf(db, 1, CLIENTS),
  },
  'planning-grid.repository': {
    pageGroupsFromTotalsFamilyWeekly: (db) =>
      planningGrid.pageGroupsFromTotals(db, {
        viewLevel: 'category',
        drillDown: 'weekly',
        filters: FILTERS,
        ...PAGE,
      }),
    pageGroupsFromTotalsFamilyWeeklyFiltered: (db) =>
      planningGrid.pageGroupsFromTotals(db, {
        viewLevel: 'category',
        drillDown: 'weekly',
        filters: FAMILY_FILTERS,
        ...PAGE,
      }),
    pageGroupsFromTotalsBusinessUnitQuarterly: (db) =>
      planningGrid.pageGroupsFromTotals(db, {
        viewLevel: 'business_unit',
        drillDown: 'quarterly',
        filters: FILTERS,
        ...PAGE,
      }),
    pageGroupsFromTotalsFamilyMonthlySorted: (db) =>
      planningGrid.pageGroupsFromTotals(db, {
        viewLevel: 'category',
        drillDown: 'monthly',
        filters: FILTERS,
        sort: { field: 'Final_Pln_Units', dir: 'desc' },
        ...PAGE,
      }),
    pageGroupsFromRecordsProductMonthlySorted: (db) =>
      planningGrid.pageGroupsFromRecords(db, {
        viewLevel: 'sku',
        drillDown: 'monthly',
        filters: FILTERS,
        sort: { field: 'Final_Pln_Units', dir: 'desc' },
        candidates: CANDIDATES,
        ...PAGE,
      }),
    pageGroupsFromRecordsFamilyWeeklySearched: (db) =>
      planningGrid.pageGroupsFromRecords(db, {
        viewLevel: 'category',
        drillDown: 'weekly',
        filters: SEARCH_FILTERS,
        ...PAGE,
      }),
    pageProductRecords: (db) => planningGrid.pageProductRecords(db, { filters: FILTERS, ...PAGE }),
    pageProductGroupsWeekly: (db) =>
      planningGrid.pageProductGroups(db, {
        viewLevel: 'sku',
        drillDown: 'weekly',
        filters: FILTERS,
        ...PAGE,
      }),
    pageSortedRecords: (db) =>
      planningGrid.pageSortedRecords(db, {
        filters: FILTERS,
        sort: { field: 'Final_Pln_Units', dir: 'desc' },
        candidates: CANDIDATES,
        ...PAGE,
      }),
    pageSortedRecordsOverWeeks: (db) =>
      planningGrid.pageSortedRecords(db, { filters: WEEK_FILTERS, sort: undefined, ...PAGE }),
  },
  'planning-grid-annotations.repository': {
    productWeekNotes: (db) => pageNotes(db, 'sku', 'weekly'),
    familyNotes: (db) => pageNotes(db, 'category', 'none'),
    familyMonthNotes: (db) => pageNotes(db, 'category', 'monthly'),
    familyQuarterNotes: (db) => pageNotes(db, 'category', 'quarterly'),
    familyYearNotes: (db) => pageNotes(db, 'category', 'yearly'),
    unitWeekNotes: (db) => pageNotes(db, 'business_unit', 'weekly'),
    pageRows: (db) => gridAnnotations.withoutAnnotations(PAGE_GROUPS, null).execute(db),
  },
  'planning-grid-options.repository': {
    filterOptionCounts: (db) => gridOptions.filterOptionCounts(db, FILTERS),
    filterOptionCountsFiltered: (db) => gridOptions.filterOptionCounts(db, FAMILY_FILTERS),
    rollupItemsFamilies: (db) =>
      gridOptions.rollupItems(db, {
        viewLevel: 'category',
        clientIds: CLIENTS,
        weeks: { from: null, to: null },
        ...PAGE,
      }),
    rollupItemsProductsOverWeeks: (db) =>
      gridOptions.rollupItems(db, {
        viewLevel: 'sku',
        clientIds: CLIENTS,
        weeks: WEEK_FILTERS.weeks!,
        ...PAGE,
      }),
  },
  'planning-policy.repository': {
    readPlanningPolicy: (db) => planningPolicy.readPlanningPolicy(db),
  },
  'provider-storage.repository': {
    findProviderRecord: (db) => providerStorage.findProviderRecord(db, 'Session', 'id', 'id'),
    consumeProviderRecord: (db) => providerStorage.consumeProviderRecord(db, { model: 'Session', id: 'id' }),
    deleteProviderRecord: (db) => providerStorage.deleteProviderRecord(db, { model: 'Session', id: 'id' }),
    deleteExpiredProviderRecords: (db) => providerStorage.deleteExpiredProviderRecords(db),
  },
  'saved-views.repository': {
    list: (db) => new SavedViewsRepository(db).list('user'),
    count: (db) => new SavedViewsRepository(db).count('user'),
    findByName: (db) => new SavedViewsRepository(db).findByName('user', 'Mine'),
    insert: (db) => new SavedViewsRepository(db).insert('user', 'Mine', {}),
  },
  'sort-extremes.repository': {
    sortCandidatesProductMonthly: (db) =>
      sortExtremes.sortCandidates(db, {
        filters: FILTERS,
        field: 'Final_Pln_Units',
        dir: 'desc',
        drillDown: 'monthly',
        ...PAGE,
      }),
    sortCandidatesRecords: (db) =>
      sortExtremes.sortCandidates(db, {
        filters: FILTERS,
        field: 'Final_Pln_Units',
        dir: 'asc',
        drillDown: 'records',
        ...PAGE,
      }),
    // The walk's answer is empty here, so the statement that reads every product tying with the
    // page's bound is listed on its own, at a placeholder bound.
    candidateTiesProductMonthly: (db) =>
      sortExtremes
        .candidateQueries({
          filters: FILTERS,
          field: 'Final_Pln_Units',
          dir: 'desc',
          drillDown: 'monthly',
          ...PAGE,
        })!
        .ties('1000.00')
        .execute(db),
    refreshStaleExtremes: (db) => sortExtremes.refreshStaleExtremes(db, 64),
  },
  'sorted-pages.repository': {
    pageRecordsInProductOrderByPid: (db) =>
      sortedPages.pageRecordsInProductOrder(db, {
        filters: FILTERS,
        key: sortedPages.productOrderKey('none', 'none', 'PID')!,
        dir: 'asc',
        byPid: true,
        ...PAGE,
      }),
    pageRecordsInProductOrderByFamily: (db) =>
      sortedPages.pageRecordsInProductOrder(db, {
        filters: FILTERS,
        key: sortedPages.productOrderKey('none', 'none', 'PF')!,
        dir: 'asc',
        byPid: false,
        ...PAGE,
      }),
    pageProductGroupsInOrderMonthlyByRank: (db) =>
      sortedPages.pageProductGroupsInOrder(db, {
        viewLevel: 'sku',
        drillDown: 'monthly',
        filters: FILTERS,
        sort: { field: 'Rank', dir: 'asc' },
        key: sortedPages.productOrderKey('sku', 'monthly', 'Rank')!,
        ...PAGE,
      }),
    pageRecordsInWeekOrder: (db) =>
      sortedPages.pageRecordsInWeekOrder(db, { filters: FILTERS, dir: 'asc', ...PAGE }),
  },
  'time-phased.repository': {
    timePhasedPageFamiliesWeekly: (db) =>
      timePhased.timePhasedPage(db, {
        viewLevel: 'category',
        bucket: 'weekly',
        filters: FILTERS,
        offset: 0,
        limit: 25,
      }),
    timePhasedPageProductsMonthly: (db) =>
      timePhased.timePhasedPage(db, {
        viewLevel: 'sku',
        bucket: 'monthly',
        filters: FILTERS,
        offset: 0,
        limit: 25,
      }),
  },
  'user-settings.repository': {
    noteUserAndRead: (db) => userSettings.noteUserAndRead(db, SCOPE),
  },
};

/** Key words that start a clause get a line of their own, so a changed clause is a one-line diff. */
const CLAUSES =
  /(?<!\b(?:left|inner|cross|union|on))\s+(?=(?:from|where|inner join|left join|cross join|join|group by|order by|having|limit|offset|returning|union all|union|on conflict|values|set)\s)/g;

/** Breaks a built statement before its clauses, leaving quoted text and hand-laid SQL alone. */
function layout(statement: string): string {
  if (statement.includes('\n')) return statement.trim();
  return statement
    .trim()
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(CLAUSES, '\n')))
    .join('');
}

/** Each repository's SQL file: every call's statements, in the order the calls are listed. */
export async function repositoryQueries(): Promise<Map<string, string>> {
  const { db, take } = recordingDatabase();
  const files = new Map<string, string>();
  for (const [repository, calls] of Object.entries(REPOSITORY_QUERIES)) {
    const sections = ['-- Generated by `npm run schema:dump`: do not edit.'];
    for (const [name, call] of Object.entries(calls)) {
      // A call that expects a row throws on the empty answer after its statement ran; the
      // statement is what counts here.
      await call(db).catch(() => undefined);
      sections.push([`-- ${repository}.${name}`, ...take().map((s) => `${layout(s)};`)].join('\n'));
    }
    files.set(repository, `${sections.join('\n\n')}\n`);
  }
  await db.destroy();
  return files;
}
