export type FilterSummary =
  { kind: 'none' } | { kind: 'all' } | { kind: 'one'; value: string } | { kind: 'some'; count: number };

/**
 * What a multi-select filter shows when closed (spec §2): its placeholder when nothing is
 * selected, 'All' when every option is, the value when one is, 'N selected' otherwise.
 */
export function filterSummary(selected: readonly string[], optionCount: number): FilterSummary {
  if (selected.length === 0) return { kind: 'none' };
  if (optionCount > 0 && selected.length >= optionCount) return { kind: 'all' };
  if (selected.length === 1) return { kind: 'one', value: selected[0]! };
  return { kind: 'some', count: selected.length };
}

/** Options whose value contains the search text, ignoring case. */
export function matchingOptions<T extends { value: string }>(options: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...options];
  return options.filter((option) => option.value.toLowerCase().includes(needle));
}

/**
 * Select All acts on the values the search shows: ticks them all, or unticks them all when every
 * one is ticked already. Values hidden by the search keep their ticks.
 */
export function toggleVisible(draft: readonly string[], visible: readonly string[]): string[] {
  const allTicked = visible.length > 0 && visible.every((value) => draft.includes(value));
  if (allTicked) return draft.filter((value) => !visible.includes(value));
  return [...draft, ...visible.filter((value) => !draft.includes(value))];
}

/**
 * The value sent to the server for one filter. Everything selected means no restriction, so the
 * request stays short and new values the server learns later are not excluded.
 */
export function filterParam(selected: readonly string[], optionCount: number): string[] | undefined {
  if (selected.length === 0) return undefined;
  if (optionCount > 0 && selected.length >= optionCount) return undefined;
  return [...selected].sort();
}
