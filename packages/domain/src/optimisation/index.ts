export * from './network';
export * from './model';
export * from './diagnose';
export * from './result';
export * from './scenario';
export * from './hand-instance';
export * from './horizon';
export * from './run';
