import {
  overridePercentFromUnits,
  overrideUnitsFromPercent,
  type InventoryReasonCode,
  type InventoryRow,
} from '@ps/domain';

/** A row's unsaved override, as the planner typed it. */
export type Draft = {
  overrideOULUnits: number | null;
  overridePercentage: number | null;
  reasonCode: InventoryReasonCode | null;
  comments: string | null;
};

export function draftOf(row: InventoryRow): Draft {
  return {
    overrideOULUnits: row.overrideOULUnits,
    overridePercentage: row.overridePercentage,
    reasonCode: row.reasonCode as InventoryReasonCode | null,
    comments: row.comments,
  };
}

/** Parses an input's text: empty means none; anything not a finite number is left as typed (NaN). */
function parse(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** Units typed: the percent follows (spec §5: units / recommended × 100, one decimal). */
export function withUnits(draft: Draft, text: string, recommended: number): Draft {
  const units = parse(text);
  return {
    ...draft,
    overrideOULUnits: units,
    overridePercentage:
      units === null || !Number.isFinite(units) ? null : overridePercentFromUnits(units, recommended),
  };
}

/** Percent typed: the units follow (spec §5: recommended × percent / 100, rounded). */
export function withPercent(draft: Draft, text: string, recommended: number): Draft {
  const percent = parse(text);
  return {
    ...draft,
    overridePercentage: percent,
    overrideOULUnits:
      percent === null || !Number.isFinite(percent) ? null : overrideUnitsFromPercent(percent, recommended),
  };
}

export function isModified(row: InventoryRow, draft: Draft): boolean {
  const saved = draftOf(row);
  // Without an override on either side, a reason or comment left in the draft saves nothing.
  if (saved.overrideOULUnits === null && draft.overrideOULUnits === null) return false;
  return (
    saved.overrideOULUnits !== draft.overrideOULUnits ||
    saved.overridePercentage !== draft.overridePercentage ||
    (saved.reasonCode ?? null) !== (draft.reasonCode ?? null) ||
    (saved.comments ?? '') !== (draft.comments ?? '')
  );
}

/** What Confirm sends: units, and the percent they came from (the server keeps a typed percent). */
export function changeOf(row: InventoryRow, draft: Draft) {
  return {
    sku: row.sku,
    site: row.site,
    version: row.version,
    overrideOULUnits: draft.overrideOULUnits,
    overridePercentage: draft.overrideOULUnits === null ? null : draft.overridePercentage,
    reasonCode: draft.overrideOULUnits === null ? null : draft.reasonCode,
    comments: draft.overrideOULUnits === null ? null : draft.comments === '' ? null : draft.comments,
  };
}
