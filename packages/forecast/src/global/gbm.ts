/**
 * Gradient-boosted regression trees for squared error, histogram-based, in plain TypeScript.
 *
 * Each feature is cut into at most `bins` bins at quantiles of its training values; a tree grows
 * depth-first to `depth` levels, and at each node the split is the (feature, bin edge) with the
 * largest reduction in squared error, scanning cumulative sums of the residuals per bin. A leaf
 * predicts the mean residual of its rows times the learning rate. Rows are subsampled per tree
 * with a seeded generator, so the same input and seed give the same model bit for bit.
 *
 * Missing values (NaN) fall in a bin of their own below every other and always go left, both when
 * training and when predicting (`!(x > threshold)`).
 */

export type GbmParams = {
  /** Boosting rounds. */
  trees: number;
  /** Levels of splits per tree (a stump is depth 1). */
  depth: number;
  learningRate: number;
  /** Fewest rows a leaf may hold; a node with fewer than twice this many is not split. */
  minLeaf: number;
  /** Most bins per feature (at most 255). */
  bins: number;
  /** Share of the rows each tree is fitted on (1 = all, no randomness). */
  subsample: number;
  seed: number;
};

/**
 * A trained model: `base` plus the sum of the trees' leaves. Trees are stored flat: node i splits
 * on `feature[i]` at `threshold[i]` (x ≤ threshold or missing → `left[i]`, else `right[i]`);
 * `feature[i] = -1` marks a leaf whose prediction is `value[i]`.
 */
export type GbmModel = {
  base: number;
  features: number;
  trees: {
    feature: Int32Array;
    threshold: Float64Array;
    left: Int32Array;
    right: Int32Array;
    value: Float64Array;
  }[];
};

/** A data set: `rows` rows of `features` values, row-major, and one target per row. */
export type GbmData = { x: Float64Array; y: Float64Array; rows: number; features: number };

/** Small, fast, seedable generator (mulberry32); the same seed gives the same sequence everywhere. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Upper edges of a feature's bins: distinct values at evenly spaced ranks of its sorted finite
 * values. A value v falls in the first bin whose edge is ≥ v; the last edge is the maximum.
 */
export function binEdges(values: readonly number[] | Float64Array, bins: number): number[] {
  const sorted = Array.from(values)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const edges: number[] = [];
  for (let b = 1; b <= bins; b++) {
    const edge = sorted[Math.min(sorted.length - 1, Math.ceil((b * sorted.length) / bins) - 1)]!;
    if (edges.length === 0 || edge > edges[edges.length - 1]!) edges.push(edge);
  }
  return edges;
}

/** Bin of a value: 0 for missing, else 1 + the index of the first edge ≥ v (binary search). */
function binOf(edges: readonly number[], v: number): number {
  if (!Number.isFinite(v)) return 0;
  let lo = 0;
  let hi = edges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid]! >= v) hi = mid;
    else lo = mid + 1;
  }
  return lo + 1;
}

export function trainGbm(data: GbmData, params: GbmParams): GbmModel {
  const { rows, features, x, y } = data;
  if (params.bins < 2 || params.bins > 255) throw new Error('bins must be between 2 and 255');
  if (rows === 0) return { base: 0, features, trees: [] };
  let base = 0;
  for (let i = 0; i < rows; i++) base += y[i]!;
  base /= rows;

  // Binned copy of the data, feature-major so a histogram pass reads one feature's column.
  const edges: number[][] = [];
  const binned = new Uint8Array(rows * features);
  const column = new Float64Array(rows);
  for (let f = 0; f < features; f++) {
    for (let i = 0; i < rows; i++) column[i] = x[i * features + f]!;
    const e = binEdges(column, params.bins);
    edges.push(e);
    for (let i = 0; i < rows; i++) binned[f * rows + i] = binOf(e, column[i]!);
  }
  const slots = params.bins + 1;

  const prediction = new Float64Array(rows).fill(base);
  const residual = new Float64Array(rows);
  const random = mulberry32(params.seed);
  const sample = new Int32Array(rows);
  const histSum = new Float64Array(slots);
  const histCount = new Int32Array(slots);
  const trees: GbmModel['trees'] = [];

  for (let t = 0; t < params.trees; t++) {
    for (let i = 0; i < rows; i++) residual[i] = y[i]! - prediction[i]!;
    let count = 0;
    for (let i = 0; i < rows; i++)
      if (params.subsample >= 1 || random() < params.subsample) sample[count++] = i;
    const nodes = {
      feature: [] as number[],
      threshold: [] as number[],
      left: [] as number[],
      right: [] as number[],
      value: [] as number[],
    };

    const grow = (members: Int32Array, level: number): number => {
      const id = nodes.feature.length;
      nodes.feature.push(-1);
      nodes.threshold.push(0);
      nodes.left.push(-1);
      nodes.right.push(-1);
      let sum = 0;
      for (let k = 0; k < members.length; k++) sum += residual[members[k]!]!;
      const n = members.length;
      nodes.value.push(n > 0 ? (params.learningRate * sum) / n : 0);
      if (level >= params.depth || n < 2 * params.minLeaf) return id;

      // Best split: largest SL²/nL + SR²/nR (the parent's S²/n is the same for every candidate).
      let bestGain = (sum * sum) / n;
      let bestFeature = -1;
      let bestBin = -1;
      for (let f = 0; f < features; f++) {
        histSum.fill(0);
        histCount.fill(0);
        const offset = f * rows;
        for (let k = 0; k < n; k++) {
          const i = members[k]!;
          const b = binned[offset + i]!;
          histSum[b] = histSum[b]! + residual[i]!;
          histCount[b] = histCount[b]! + 1;
        }
        let sumLeft = 0;
        let countLeft = 0;
        const lastBin = edges[f]!.length;
        for (let b = 0; b < lastBin; b++) {
          sumLeft += histSum[b]!;
          countLeft += histCount[b]!;
          const countRight = n - countLeft;
          if (countLeft < params.minLeaf) continue;
          if (countRight < params.minLeaf) break;
          const sumRight = sum - sumLeft;
          const gain = (sumLeft * sumLeft) / countLeft + (sumRight * sumRight) / countRight;
          // Strictly greater: ties keep the first feature and the lowest edge.
          if (gain > bestGain * (1 + 1e-12) + 1e-300) {
            bestGain = gain;
            bestFeature = f;
            bestBin = b;
          }
        }
      }
      if (bestFeature < 0) return id;
      const offset = bestFeature * rows;
      let nLeft = 0;
      for (let k = 0; k < n; k++) if (binned[offset + members[k]!]! <= bestBin) nLeft++;
      const leftRows = new Int32Array(nLeft);
      const rightRows = new Int32Array(n - nLeft);
      let l = 0;
      let r = 0;
      for (let k = 0; k < n; k++) {
        const i = members[k]!;
        if (binned[offset + i]! <= bestBin) leftRows[l++] = i;
        else rightRows[r++] = i;
      }
      nodes.feature[id] = bestFeature;
      // Bin 0 (missing) always goes left; bin b ≥ 1 ends at edges[b − 1].
      nodes.threshold[id] = bestBin === 0 ? -Infinity : edges[bestFeature]![bestBin - 1]!;
      nodes.left[id] = grow(leftRows, level + 1);
      nodes.right[id] = grow(rightRows, level + 1);
      return id;
    };
    grow(sample.slice(0, count), 0);
    const tree = {
      feature: Int32Array.from(nodes.feature),
      threshold: Float64Array.from(nodes.threshold),
      left: Int32Array.from(nodes.left),
      right: Int32Array.from(nodes.right),
      value: Float64Array.from(nodes.value),
    };
    trees.push(tree);
    for (let i = 0; i < rows; i++) prediction[i] = prediction[i]! + treeValue(tree, x, i * features);
  }
  return { base, features, trees };
}

function treeValue(tree: GbmModel['trees'][number], x: ArrayLike<number>, offset: number): number {
  let node = 0;
  while (tree.feature[node]! >= 0) {
    const v = x[offset + tree.feature[node]!]!;
    node = v > tree.threshold[node]! ? tree.right[node]! : tree.left[node]!;
  }
  return tree.value[node]!;
}

/** The model's prediction for one row of `model.features` values. */
export function predictGbm(model: GbmModel, row: ArrayLike<number>): number {
  let total = model.base;
  for (const tree of model.trees) total += treeValue(tree, row, 0);
  return total;
}
