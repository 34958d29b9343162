import { describe, expect, it } from 'vitest';
import {
  RECONCILIATION_LEVELS,
  reconciliationRuleLines,
  type LevelScore,
  type ReconciliationMethod,
  type SavedReconciliationScores,
} from './hierarchy-evaluation';

/** A data set whose every level scores `design` / `reported` per method (origin 2 design, 5 reported). */
function dataSet(
  name: string,
  figures: Partial<Record<ReconciliationMethod, [number, number]>>,
): SavedReconciliationScores {
  const scores: LevelScore[] = Object.entries(figures).flatMap(([method, [design, reported]]) =>
    RECONCILIATION_LEVELS.flatMap((level) => [
      { origin: 2, level, method: method as ReconciliationMethod, mase: design, smape: 0 },
      { origin: 5, level, method: method as ReconciliationMethod, mase: reported, smape: 0 },
    ]),
  );
  return { name, summary: '', design: [2], scores };
}

describe('the reconciliation rule', () => {
  it('changes to the candidate with the lowest mean ratio on design, kept when it gains on reported too', () => {
    // bottom-up: design ratios 1.1 and 0.8 → 0.95; reported 1.05 and 0.9 → 0.975.
    const sets = [
      dataSet('a', { 'per-level': [1, 1], 'bottom-up': [1.1, 1.05], 'run-mint-wls': [0.99, 0.9] }),
      dataSet('b', { 'per-level': [2, 2], 'bottom-up': [1.6, 1.8], 'run-mint-wls': [2, 2.2] }),
    ];
    const lines = reconciliationRuleLines(sets, false);
    expect(lines).toContain('decided on the design origins: bottom-up (gain 5.00 %)');
    expect(lines.some((l) => l.startsWith('reported once: bottom-up') && l.includes('bottom-up kept'))).toBe(
      true,
    );
    // Design only: the decision, nothing of the reported origins.
    const design = reconciliationRuleLines(sets, true);
    expect(design.at(-1)).toBe('decided on the design origins: bottom-up (gain 5.00 %)');
    expect(design.some((l) => l.includes('reported'))).toBe(false);
  });

  it('keeps the incumbent when no candidate gains 0.5 % on design, or the winner loses on reported', () => {
    const small = [dataSet('a', { 'per-level': [1, 1], 'run-mint-wls': [0.996, 0.9] })];
    expect(reconciliationRuleLines(small, false)).toContain(
      'decided on the design origins: per-level (no candidate gains 0.5 %)',
    );
    const loses = [dataSet('a', { 'per-level': [1, 1], 'run-mint-wls': [0.98, 1.01] })];
    expect(reconciliationRuleLines(loses, false).some((l) => l.includes('per-level stays'))).toBe(true);
  });
});
