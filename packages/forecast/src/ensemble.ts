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
