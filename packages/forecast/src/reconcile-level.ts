/**
 * Reconciling one parent with its children (a family with its products, a business unit with its
 * families): the step a product run repeats per level of its hierarchy. Each method answers the
 * children's new paths; the parent's is their sum, so the pair is coherent by construction.
 *
 * MinT on a one-level tree has a closed form. With W = diag(w_parent, w_1 … w_k) and the children
 * as the bottom series (S = [1'; I]), the reconciled children are
 *   b̃ = ŷ_b + W_b·1 (w_parent + 1'W_b 1)⁻¹ (ŷ_parent − 1'ŷ_b)
 * (Wickramasuriya et al. 2019, eq. 9 with U' = [1, −1']): the gap between the parent's own
 * forecast and the children's sum is shared out in proportion to each node's error variance,
 * the parent keeping its own share. No matrix is built, so a family of thousands of products
 * costs a pass over them; `reconcile-level.test.ts` checks it against the dense `minTrace`.
 */

export const LEVEL_METHODS = ['bottom-up', 'top-down', 'mint-ols', 'mint-wls'] as const;
export type LevelMethod = (typeof LEVEL_METHODS)[number];

/** A node as the methods see it at one origin. */
export type LevelNode = {
  /** The node's forecast path (for the children, whatever the level below made of it). */
  forecast: readonly number[];
  /** MinT-WLS's weight: the node's error variance, or a proxy for it. */
  variance: number;
  /** Top-down's weight: the node's share of the parent (e.g. its sales over the last year). */
  share: number;
};

/** The children's paths after reconciling them with their parent by `method`. */
export function reconcileLevel(
  method: LevelMethod,
  parent: LevelNode,
  children: readonly LevelNode[],
): number[][] {
  const steps = parent.forecast.length;
  if (method === 'bottom-up') return children.map((c) => [...c.forecast]);
  if (method === 'top-down') {
    const total = children.reduce((t, c) => t + c.share, 0);
    // No history to share by: equal parts.
    const weights = children.map((c) => (total > 0 ? c.share / total : 1 / children.length));
    return weights.map((w) => parent.forecast.map((v) => v * w));
  }
  // A node with no variance (a constant history) would take none of the gap: a level with one
  // falls back to equal weights, i.e. OLS.
  const wls = method === 'mint-wls' && [parent, ...children].every((n) => n.variance > 0);
  const weightOf = (node: LevelNode): number => (wls ? node.variance : 1);
  const weights = children.map(weightOf);
  const denominator = weightOf(parent) + weights.reduce((t, w) => t + w, 0);
  const gaps = Array.from(
    { length: steps },
    (_, j) => parent.forecast[j]! - children.reduce((t, c) => t + c.forecast[j]!, 0),
  );
  return children.map((c, i) => c.forecast.map((v, j) => v + (gaps[j]! * weights[i]!) / denominator));
}
