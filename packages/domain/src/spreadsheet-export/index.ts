export * from './horizon';
export * from './export-row';
export * from './files';
export * from './neutralise';
export * from './currency';
export * from './number-formats';
