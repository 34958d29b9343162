/**
 * A hierarchy for the M4 weekly set, which has none: the training file carries only each series'
 * id and values (its domain is in M4's separate info file, not here). The series are shuffled
 * with a fixed seed and dealt into `units` groups of `familiesPerUnit` families, so the groups
 * are arbitrary but the same on every run. Each series is cut to its last `weeks` values (longer
 * ones only), so the sums are taken over aligned steps; M4's series do not share calendar dates,
 * so the "weeks" they are aligned on are positions from the end, not dates. It tests the method
 * on series of unrelated scales and shapes, not on a real company's hierarchy.
 */
import { mulberry32 } from './global/gbm';
import type { M4Series } from './m4-csv';

export type M4Hierarchy = {
  ids: string[];
  /** Per series, its ancestors from the top: ['total', unit, unit/family]. */
  paths: string[][];
  series: number[][];
};

export function m4Hierarchy(
  all: readonly M4Series[],
  options: { weeks: number; units: number; familiesPerUnit: number; seed: number },
): M4Hierarchy {
  const kept = all.filter((s) => s.values.length >= options.weeks);
  const random = mulberry32(options.seed);
  // Fisher–Yates on the positions, so the grouping depends only on the seed and the file's order.
  const order = kept.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const families = options.units * options.familiesPerUnit;
  const ids: string[] = [];
  const paths: string[][] = [];
  const series: number[][] = [];
  order.forEach((index, position) => {
    const family = position % families;
    const unit = `unit ${Math.floor(family / options.familiesPerUnit) + 1}`;
    ids.push(kept[index]!.id);
    paths.push(['total', unit, `${unit}/family ${(family % options.familiesPerUnit) + 1}`]);
    series.push(kept[index]!.values.slice(-options.weeks));
  });
  return { ids, paths, series };
}
