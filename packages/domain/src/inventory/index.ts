export * from './oul';
export * from './override';
export * from './metrics';
export * from './simulate';
export * from './network-supply';
export * from './open-orders';
