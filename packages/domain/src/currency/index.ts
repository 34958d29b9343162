export * from './exchange-rates';
