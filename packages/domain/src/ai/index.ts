export * from './answer-format';
export * from './chat';
export * from './grounding';
export * from './help';
export * from './period';
export * from './question';
export { PLAN_MEASURES, type PlanMeasure } from './lexicon';
export * from './scenario';
