export * from './numbers';
export * from './currency';
export * from './dates';
export * from './display';
