export * from './cells';
export * from './csv';
export * from './headers';
export * from './periods';
export * from './validate';
