export { applyBulkWrite, bulkWrite, type BulkKeys } from './bulk-apply';
export {
  EXTREMES_REFRESHED_AT_ONCE,
  KEPT_TABLES,
  columnsOf,
  isGrouped,
  keptTable,
  rowsSql,
  type KeptTable,
} from './registry';
export { gridPositionSql, overrideWeightSql, overriddenSql, periodSql } from './rules-sql';
