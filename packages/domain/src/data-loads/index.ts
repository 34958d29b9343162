export * from './layouts';
export * from './csv-rows';
export * from './rows';
