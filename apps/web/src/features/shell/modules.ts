/** The suite's modules and versions (spec §1, §9). */
export const MODULES = {
  demandPlanning: { name: 'Demand Planning & Forecasting', version: '1.0.0' },
  optimization: { name: 'Supply Chain Network Optimization', version: '0.1.0' },
  quality: { name: 'Quality Control & Analytics', version: '0.0.1', expectedRelease: 'Q4 2025' },
  controlTower: { name: 'Control Tower', version: '1.0.0' },
} as const;
