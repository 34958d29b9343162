import type { Insertable } from 'kysely';
import type { ColumnSpec } from './bulk';
import type { AuditLogTable } from './schema';

/**
 * The audit_log columns every record writer fills, for insertByUnnest; each writer adds its own
 * (the import's id, a cause, or the seed's historical times).
 */
export const AUDIT_LOG_COLUMNS = [
  { name: 'client_id', type: 'text' },
  { name: 'pid', type: 'text' },
  { name: 'week_start', type: 'date' },
  { name: 'field', type: 'text' },
  { name: 'old_value', type: 'text' },
  { name: 'new_value', type: 'text' },
  { name: 'changed_by', type: 'text' },
  { name: 'source', type: 'text' },
] as const satisfies ReadonlyArray<ColumnSpec<Insertable<AuditLogTable>>>;
