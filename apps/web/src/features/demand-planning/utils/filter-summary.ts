/**
 * The text a multi-select filter shows when closed (spec §2): its placeholder when nothing is
 * selected, 'All' when every option is, the value when one is, 'N selected' otherwise.
 */
export function filterSummaryText(
  selected: readonly string[],
  optionCount: number,
  placeholder: string,
): string {
  if (selected.length === 0) return placeholder;
  if (optionCount > 0 && selected.length >= optionCount) return 'All';
  if (selected.length === 1) return selected[0]!;
  return `${selected.length} selected`;
}

/** Options whose value contains the search text, ignoring case. */
export function matchingOptions<T extends { value: string }>(options: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...options];
  return options.filter((option) => option.value.toLowerCase().includes(needle));
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
