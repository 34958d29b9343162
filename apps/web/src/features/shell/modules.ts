/** The suite's modules (names as catalogue keys) and versions (spec §1, §9). */
export const MODULES = {
  demandPlanning: { nameKey: 'shell:module.demandPlanning', version: '1.0.0' },
  optimization: { nameKey: 'shell:module.optimization', version: '0.1.0' },
  quality: { nameKey: 'shell:module.quality', version: '0.0.1', expectedRelease: 'Q4 2025' },
  controlTower: { nameKey: 'shell:module.controlTower', version: '1.0.0' },
} as const;
