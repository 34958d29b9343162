import { median } from './stats';
import type { ModelForecast } from './types';

/**
 * The ensemble: the step-by-step median of the members' paths. A median ignores one wild member,
 * which is what made SCUM's four-model median robust in M4 (Petropoulos & Svetunkov 2020).
 * Its spread is the median of the members' spreads, an approximation that ignores how much the
 * members disagree; the evaluation reports the resulting interval coverage.
 */
export function medianCombination(members: readonly ModelForecast[]): { mean: number[]; sd: number[] } {
  const horizon = members[0]?.mean.length ?? 0;
  const mean: number[] = [];
  const sd: number[] = [];
  for (let j = 0; j < horizon; j++) {
    mean.push(median(members.map((f) => f.mean[j]!)));
    sd.push(median(members.map((f) => f.sd[j]!)));
  }
  return { mean, sd };
}

/**
 * Combination weights from validation errors (sMAPE on the inner hold-out, one per member):
 * w_i = exp(−(s_i − s_min) / s_min), normalised to sum 1. A member twice as wrong as the best gets
 * e^−1 ≈ 0.37 of its weight; the scale is the best error itself, so the rule needs no tuning per
 * series. On the dev split it beat the median, inverse-error and ProLogistica's exp(1/s) weights
 * (docs/forecasting.md). Members with no finite error get no weight; when the best error is 0 the
 * perfect members share the weight. `temperature` scales the denominator (Infinity: equal
 * weights); the evaluation compares its neighbours.
 */
export function softmaxWeights(errors: readonly number[], temperature = 1): number[] {
  const finite = errors.filter(Number.isFinite);
  if (finite.length === 0) return errors.map(() => 1 / errors.length);
  const best = Math.min(...finite);
  const raw = errors.map((s) => {
    if (!Number.isFinite(s)) return 0;
    if (best <= 0) return s <= 0 ? 1 : 0;
    return Math.exp(-(s - best) / (temperature * best));
  });
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
}

/** Step-by-step weighted mean of the members' paths and of their spreads (weights sum to 1). */
export function weightedCombination(
  members: readonly ModelForecast[],
  weights: readonly number[],
): { mean: number[]; sd: number[] } {
  const horizon = members[0]?.mean.length ?? 0;
  const mean = new Array<number>(horizon).fill(0);
  const sd = new Array<number>(horizon).fill(0);
  members.forEach((member, i) => {
    const w = weights[i]!;
    if (w === 0) return;
    for (let j = 0; j < horizon; j++) {
      mean[j] = mean[j]! + w * member.mean[j]!;
      sd[j] = sd[j]! + w * member.sd[j]!;
    }
  });
  return { mean, sd };
}
