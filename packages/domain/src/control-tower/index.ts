export * from './metrics';
export * from './format';
export * from './worksheet';
export * from './accuracy';
