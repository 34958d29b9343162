export { applyBulkWrite, bulkWrite, type BulkKeys } from './bulk-apply';
export { KEPT_TABLES, columnsOf, isGrouped, keptTable, rowsSql, type KeptTable } from './registry';
export { overrideWeightSql, overriddenSql, periodSql } from './rules-sql';
