import { addWeeks, toIsoDate, weekStartSunday } from '@ps/domain';
import { createRandom, streamSeed } from './random';

/**
 * The sample data pack (docs/data-integration.md): the files a small pump and valve maker would
 * send, in the bulk loads' layouts. It is the company's own data, not the demo generator's
 * database: 24 products of two business units, a price rise half a year ago, and two years of
 * weekly sales history ending with the last full week; for inventory planning, each product's
 * lead time at its home site (A items also stocked at the other site), last Saturday's stock and
 * the open orders of its suppliers. Deterministic for a given anchor.
 */
export type SamplePack = {
  'products.csv': string;
  'sales-history.csv': string;
  'lead-times.csv': string;
  'inventory-positions.csv': string;
  'open-orders.csv': string;
};

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
  const leadTimes = [
    'PID,Site,Region,Lead Time Days,Lead Time SD Days,Review Period,Replenishment Frequency,Demand Share',
  ];
  const positions = ['PID,Site,As Of,On Hand'];
  const orders = ['Order,PID,Site,Quantity,Due Date,Status'];
  // Stock counted at the end of the last full week.
  const countDay = toIsoDate(new Date(currentWeek.getTime() - 86_400_000));
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
      // A items are stocked at both sites (70 % of demand at home); the others at home only.
      const sites =
        classOf === 'A'
          ? [
              { ...place, share: 70 },
              { ...PLACES[(index + 1) % PLACES.length]!, share: 30 },
            ]
          : [{ ...place, share: 100 }];
      // Spares come from a supplier abroad (5–7 weeks); pumps and valves from the plants (2–3).
      const leadDays = family.prefix === 'PS' ? 35 + 7 * (n % 3) : 14 + 7 * (n % 2);
      sites.forEach(({ site, region, share }, s) => {
        const weekly = Math.round((level * share) / 100);
        leadTimes.push(csvLine([pid, site, region, leadDays, Math.round(leadDays * 0.2), 1, 1, share]));
        positions.push(csvLine([pid, site, countDay, weekly * (2 + ((index + s) % 3))]));
        // One line due next week, one in three weeks, and last month's line, received.
        const po = `PO-${4500 + index}${s}`;
        orders.push(csvLine([po, pid, site, weekly * 2, toIsoDate(addWeeks(currentWeek, 1)), 'open']));
        orders.push(csvLine([`${po}-2`, pid, site, weekly, toIsoDate(addWeeks(currentWeek, 3)), 'open']));
        orders.push(
          csvLine([`${po}-0`, pid, site, weekly * 2, toIsoDate(addWeeks(currentWeek, -4)), 'received']),
        );
      });
      index += 1;
    }
  }
  const file = (lines: string[]) => `${lines.join('\n')}\n`;
  return {
    'products.csv': file(products),
    'sales-history.csv': file(history),
    'lead-times.csv': file(leadTimes),
    'inventory-positions.csv': file(positions),
    'open-orders.csv': file(orders),
  };
}
