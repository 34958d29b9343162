export * from './demand-record';
export * from './demand-record.schema';
export * from './plan-chain';
export * from './weeks';
export * from './user-settings';
export * from './planning-grid';
export * from './rollup';
export * from './format';
