import {
  ZCommentsSchema,
  ZOverridePercentSchema,
  ZOverrideUnitsSchema,
  ZReasonCodeSchema,
  type EditableField,
  type EditableValues,
} from '@ps/domain';
import { i18next } from '../../../i18n/i18n';

export type EditValueResult<F extends EditableField = EditableField> =
  | { ok: true; value: EditableValues[F] }
  /** `message` names the column (toasts); `reason` is the rule alone, for the cell itself. */
  | { ok: false; message: string; reason: string };

function toNumberOrNull(raw: unknown): number | null | 'not-a-number' {
  if (raw === null || raw === undefined || raw === '') return null;
  if (typeof raw !== 'number' && typeof raw !== 'string') return 'not-a-number';
  const value = typeof raw === 'number' ? raw : Number(raw.trim());
  return Number.isFinite(value) ? value : 'not-a-number';
}

/**
 * The domain schemas' rules (packages/domain demand-record.schema.ts), by their English wording,
 * with the catalogue sentence for each; `limit` and `values` come from the wording.
 */
const RULES: ReadonlyArray<{ wording: RegExp; key: string }> = [
  { wording: /^must be a number$/, key: 'errors:editValue.notANumber' },
  { wording: /^must be text$/, key: 'errors:editValue.notText' },
  { wording: /^must be at most (?<limit>[\d.]+) characters$/, key: 'errors:editValue.atMostCharacters' },
  { wording: /^must be at most (?<limit>[\d.]+)$/, key: 'errors:editValue.atMost' },
  { wording: /^must be at least (?<limit>[\d.]+)$/, key: 'errors:editValue.atLeast' },
  { wording: /^must have at most 2 decimals$/, key: 'errors:editValue.twoDecimals' },
  { wording: /^must be a whole number$/, key: 'errors:editValue.wholeNumber' },
  { wording: /^must be 0 or more$/, key: 'errors:editValue.zeroOrMore' },
  { wording: /^must be one of (?<values>.+)$/, key: 'errors:editValue.oneOf' },
];

/** The user's sentence for a broken rule, naming the column as the grid header does (or no column). */
function ruleMessage(field: EditableField | null, wording: string): string {
  const column = field === null ? '' : i18next.t(`planning:column.${field}`);
  for (const rule of RULES) {
    const match = rule.wording.exec(wording);
    if (match) return i18next.t(rule.key, { field: column, ...match.groups }).trim();
  }
  // A rule added to the domain without a sentence here still names the column.
  return `${column} ${wording}`;
}

/**
 * Checks a value typed into an editable cell against the same rules the server applies (spec §5):
 * percents 0–100 with at most 2 decimals, units whole and ≥ 0, a known reason code, comments of at
 * most 500 characters. An empty cell clears the override (null).
 */
export function parseEditValue(field: EditableField, raw: unknown): EditValueResult {
  const fail = (wording: string): EditValueResult => ({
    ok: false,
    message: ruleMessage(field, wording),
    reason: ruleMessage(null, wording),
  });
  switch (field) {
    case 'Rev_Pln_Ovrd_Percent':
    case 'SOP_Pln_Ovrd_Percent': {
      const value = toNumberOrNull(raw);
      if (value === 'not-a-number') return fail('must be a number');
      const parsed = ZOverridePercentSchema.safeParse(value);
      return parsed.success ? { ok: true, value: parsed.data } : fail(parsed.error.issues[0]!.message);
    }
    case 'Rev_Pln_Ovrd_Units':
    case 'SOP_Pln_Ovrd_Units': {
      const value = toNumberOrNull(raw);
      if (value === 'not-a-number') return fail('must be a number');
      const parsed = ZOverrideUnitsSchema.safeParse(value);
      return parsed.success ? { ok: true, value: parsed.data } : fail(parsed.error.issues[0]!.message);
    }
    case 'Reason_Code': {
      const parsed = ZReasonCodeSchema.safeParse(raw === '' || raw === undefined ? null : raw);
      return parsed.success ? { ok: true, value: parsed.data } : fail(parsed.error.issues[0]!.message);
    }
    case 'Comments': {
      if (raw !== null && raw !== undefined && typeof raw !== 'string') return fail('must be text');
      const text = raw ?? '';
      const parsed = ZCommentsSchema.safeParse(text.trim() === '' ? null : text);
      return parsed.success ? { ok: true, value: parsed.data } : fail(parsed.error.issues[0]!.message);
    }
  }
}
