import {
  ZCommentsSchema,
  ZOverridePercentSchema,
  ZOverrideUnitsSchema,
  ZReasonCodeSchema,
  fieldLabel,
  type EditableField,
  type EditableValues,
} from '@ps/domain';

export type EditValueResult<F extends EditableField = EditableField> =
  { ok: true; value: EditableValues[F] } | { ok: false; message: string };

function toNumberOrNull(raw: unknown): number | null | 'not-a-number' {
  if (raw === null || raw === undefined || raw === '') return null;
  if (typeof raw !== 'number' && typeof raw !== 'string') return 'not-a-number';
  const value = typeof raw === 'number' ? raw : Number(raw.trim());
  return Number.isFinite(value) ? value : 'not-a-number';
}

/**
 * Checks a value typed into an editable cell against the same rules the server applies (spec §5):
 * percents 0–100 with at most 2 decimals, units whole and ≥ 0, a known reason code, comments of at
 * most 500 characters. An empty cell clears the override (null).
 */
export function parseEditValue(field: EditableField, raw: unknown): EditValueResult {
  const label = fieldLabel(field);
  const fail = (message: string): EditValueResult => ({ ok: false, message: `${label} ${message}` });
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
