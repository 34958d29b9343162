import { CUSTOMER_CLIENT, INTERNAL_CLIENT, type ClientId } from '@ps/domain';

/** Business units and their product families, per client, for the demo data. */
export const CATALOG: Record<ClientId, Record<string, readonly string[]>> = {
  [INTERNAL_CLIENT]: {
    'Industrial Valves': ['Ball Valves', 'Gate Valves', 'Butterfly Valves', 'Check Valves'],
    'Pumps & Flow': ['Centrifugal Pumps', 'Gear Pumps', 'Metering Pumps'],
    Instrumentation: ['Pressure Gauges', 'Flow Meters', 'Level Sensors', 'Controllers'],
    'Aftermarket Services': ['Repair Kits', 'Seals & Gaskets', 'Spare Parts'],
  },
  [CUSTOMER_CLIENT]: {
    'CIRCOR Aerospace': ['Actuators', 'Landing Gear Valves', 'Fuel Controls'],
    'CIRCOR Industrial': ['Screw Pumps', 'Safety Valves', 'Regulators'],
    'CIRCOR Energy': ['Pipeline Valves', 'Downstream Valves'],
  },
};

export const REGIONS: Record<string, readonly string[]> = {
  'North America': ['Dallas DC', 'Atlanta DC', 'Toronto Plant'],
  EMEA: ['Rotterdam DC', 'Frankfurt Plant', 'Milan DC'],
  APAC: ['Singapore DC', 'Shanghai Plant'],
  LATAM: ['Monterrey Plant', 'São Paulo DC'],
};

export const PLANNERS = ['Avery Chen', 'Jordan Patel', 'Morgan Diaz', 'Riley Okafor', 'Sam Lindqvist'];

export const OVERRIDE_NOTES: Record<string, readonly string[]> = {
  'Market Trend': [
    'Distributor reports rising orders',
    'Competitor exit in region',
    'Softening demand per sales',
  ],
  'Supply Chain': [
    'Allocation limit from supplier',
    'Port congestion delays receipts',
    'Second source qualified',
  ],
  'Seasonal Adjustment': ['Summer maintenance season', 'Year-end budget flush', 'Holiday shutdown week'],
  'Strategic Initiative': ['Key account expansion', 'Product line rationalisation', 'New channel partner'],
  Other: ['Confirmed by customer call', 'One-off project order', 'Pricing change effective next month'],
};
