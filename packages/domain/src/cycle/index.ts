export * from './cycle-schedule';
export * from './cycle-steps';
