/**
 * A product forecast run's chunks when it reconciles across the hierarchy: reconciliation needs a
 * business unit's whole subtree in one place, so a chunk holds whole units. Small units share a
 * chunk up to `size` products (fewer jobs, fewer reads); a unit larger than `size` is a chunk of
 * its own, which bounds a chunk's memory by the largest unit rather than by the run. Units go in
 * key order and products in the order given, so the same products always make the same chunks.
 */
export type Subtree = { key: string; products: readonly string[] };

export function chunkBySubtree(subtrees: readonly Subtree[], size: number): string[][] {
  const ordered = [...subtrees].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const chunks: string[][] = [];
  let current: string[] = [];
  for (const subtree of ordered) {
    if (subtree.products.length === 0) continue;
    if (current.length > 0 && current.length + subtree.products.length > size) {
      chunks.push(current);
      current = [];
    }
    current.push(...subtree.products);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
