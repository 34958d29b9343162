import { addWeeks, toIsoDate, weekStartSunday } from '@ps/domain';
import { createRandom, streamSeed } from './random';

/**
 * The sample data pack (docs/data-integration.md): the files a small pump and valve maker would
 * send, in the bulk loads' layouts. It is the company's own data, not the demo generator's
 * database: 24 products of two business units, a price rise half a year ago, and two years of
 * weekly sales history ending with the last full week. Deterministic for a given anchor.
 */
export type SamplePack = { 'products.csv': string; 'sales-history.csv': string };

const HISTORY_WEEKS = 104;
const FAMILIES: Array<{ bu: string; pf: string; prefix: string; cost: number; price: number }> = [
  { bu: 'Pumps', pf: 'Centrifugal Pumps', prefix: 'CP', cost: 410, price: 690 },
  { bu: 'Pumps', pf: 'Diaphragm Pumps', prefix: 'DP', cost: 220, price: 385 },
  { bu: 'Pumps', pf: 'Pump Spares', prefix: 'PS', cost: 18, price: 39 },
  { bu: 'Valves', pf: 'Ball Valves', prefix: 'BV', cost: 64, price: 119 },
  { bu: 'Valves', pf: 'Gate Valves', prefix: 'GV', cost: 95, price: 168 },
  { bu: 'Valves', pf: 'Valve Actuators', prefix: 'VA', cost: 310, price: 540 },
];
const PLACES = [
  { region: 'North America', site: 'Houston' },
  { region: 'Europe', site: 'Rotterdam' },
];
const PLANNERS = ['Dana Lee', 'Marco Rossi'];
const PRODUCTS_PER_FAMILY = 4;

const csvLine = (values: Array<string | number>): string => values.join(',');

export function samplePack(today: Date): SamplePack {
  const currentWeek = weekStartSunday(today);
  const firstWeek = addWeeks(currentWeek, -HISTORY_WEEKS);
  const priceRise = toIsoDate(addWeeks(currentWeek, -26));
  const products = [
    'PID,Client,Business Unit,Family,Class,Region,Site,Entity Type,Planner,Unit Cost,Unit Price,Effective Date',
  ];
  const history = ['PID,Week,Units,Revenue,Cost'];
  let index = 0;
  for (const family of FAMILIES) {
    for (let n = 1; n <= PRODUCTS_PER_FAMILY; n += 1) {
      const random = createRandom(streamSeed(20_261_122, index));
      const pid = `ACME-${family.prefix}-${100 + n}`;
      const place = PLACES[index % PLACES.length]!;
      const size = 1 + 0.25 * (n - 1);
      const cost = Math.round(family.cost * size * 100) / 100;
      const price = Math.round(family.price * size * 100) / 100;
      const classOf = n === 1 ? 'A' : n === 2 ? 'B' : 'C';
      const attributes = [
        pid,
        'internal',
        family.bu,
        family.pf,
        classOf,
        place.region,
        place.site,
        'Finished Good',
      ];
      const planner = PLANNERS[index % PLANNERS.length]!;
      products.push(csvLine([...attributes, planner, cost, price, '']));
      // Half a year ago prices rose by 4 %, costs by 3 %.
      products.push(
        csvLine([
          ...attributes,
          planner,
          Math.round(cost * 103) / 100,
          Math.round(price * 104) / 100,
          priceRise,
        ]),
      );
      const level = (family.prefix === 'PS' ? 140 : 30) / size;
      for (let w = 0; w < HISTORY_WEEKS; w += 1) {
        const week = addWeeks(firstWeek, w);
        const season = 1 + 0.25 * Math.sin((2 * Math.PI * (week.getUTCMonth() + 1)) / 12 + index);
        const trend = 1 + (0.1 * w) / HISTORY_WEEKS;
        const units = Math.max(0, Math.round(level * season * trend * (1 + 0.2 * random.normal())));
        // A company sends revenue it invoiced (with discounts); cost it leaves to the loader.
        const revenue = units === 0 ? '' : (units * price * random.between(0.9, 1)).toFixed(2);
        history.push(csvLine([pid, toIsoDate(week), units, revenue, '']));
      }
      index += 1;
    }
  }
  return { 'products.csv': `${products.join('\n')}\n`, 'sales-history.csv': `${history.join('\n')}\n` };
}
