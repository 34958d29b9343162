export * from './rules';
export * from './time-buckets';
export * from './roll-up';
