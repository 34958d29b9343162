import { OVERRIDE_WEIGHT_FALLBACK, OVERRIDE_WEIGHT_FIELDS, fieldSpecOf } from '@ps/domain';

/** The record column of a catalogue field (the rules name fields; SQL reads columns). */
export function recordColumn(field: string): string {
  const spec = fieldSpecOf(field);
  if (spec?.table !== 'demand_records' || spec.column === null) {
    throw new Error(`${field} is not a column of demand_records`);
  }
  return spec.column;
}

/**
 * The override weight of record row `r` (packages/domain rules.ts, OVERRIDE_WEIGHT_FIELDS): the
 * first field above 0, else the fallback, as NUMERIC so weighted sums add up exactly.
 */
export const overrideWeightSql = (r: string): string =>
  `(case ${OVERRIDE_WEIGHT_FIELDS.map((field) => {
    const column = `${r}.${recordColumn(field)}`;
    return `when ${column} > 0 then ${column}::numeric`;
  }).join(' ')} else ${OVERRIDE_WEIGHT_FALLBACK} end)`;

/** A record with any override set (a row `r` of demand_records or of a transition table). */
export const overriddenSql = (r: string): string =>
  `(${['rev_pln_ovrd_percent', 'rev_pln_ovrd_units', 'sop_pln_ovrd_percent', 'sop_pln_ovrd_units']
    .map((c) => `${r}.${c} is not null`)
    .join(' or ')})`;

/** The grid's period key of week `week` at drill-down `grain` (planning-grid.sql.ts periodKey). */
export const periodSql = (week: string, grain: string): string => `(case ${grain}
    when 'none' then ''::text
    when 'weekly' then to_char(${week}, 'YYYY-MM-DD')
    when 'monthly' then to_char(${week}, 'YYYY-MM')
    when 'quarterly' then to_char(${week}, 'YYYY-"Q"Q')
    else to_char(${week}, 'YYYY') end)`;

/** A record's grid position (PID, then week), the order in which a roll-up lists its notes. */
export const gridPositionSql = (r: string): string =>
  `(${r}.pid || chr(1) || ${r}.week_start::text) collate "C"`;
