import { CLIENT_IDS } from '../demand-record';

/**
 * The layouts of the admin's bulk data loads (docs/data-integration.md): one per entity, the same
 * columns in a CSV file or the first sheet of an .xlsx workbook. Headers are matched without
 * regard to case, spaces or punctuation, by their name or one of their aliases.
 */
export const DATA_LOAD_ENTITIES = [
  'products',
  'sales-history',
  'lead-times',
  'inventory-positions',
  'open-orders',
] as const;
export type DataLoadEntity = (typeof DATA_LOAD_ENTITIES)[number];

/**
 * How a cell is read: `count` whole units 0 or more, `duration` a positive time (weeks or days),
 * `spread` a time 0 or more, `percent` 0–100, `status` an order's open or closed.
 */
export type LayoutColumnKind =
  | 'pid'
  | 'text'
  | 'client'
  | 'amount'
  | 'units'
  | 'count'
  | 'duration'
  | 'spread'
  | 'percent'
  | 'status'
  | 'date'
  | 'week';

export type LayoutColumn = {
  /** The key the row's value travels under. */
  key: string;
  /** The header the template writes. */
  header: string;
  aliases: readonly string[];
  kind: LayoutColumnKind;
  required: boolean;
  /** What the column holds, for the template's notes and the docs. */
  description: string;
  /** A value of the template's example row. */
  example: string;
};

export type DataLoadLayout = {
  entity: DataLoadEntity;
  title: string;
  /** What one row is and what a load of it does. */
  description: string;
  columns: readonly LayoutColumn[];
  /** Of the optional columns, one of each group is required (a week or a day). */
  oneOf?: readonly (readonly string[])[];
  /**
   * Of the optional columns, at most one of each group may hold a value on a row (the same figure
   * in two units). Checked with `oneOf` by the row reader; the groups read into `combine`.
   */
  atMostOne?: readonly (readonly string[])[];
};

/** The words an order's status may be given in, by what they mean. */
export const ORDER_STATUSES = {
  open: ['open', 'released', 'confirmed', 'in transit', 'planned'],
  closed: ['closed', 'received', 'complete', 'completed', 'cancelled', 'canceled', 'delivered'],
} as const;

const PID_COLUMN: LayoutColumn = {
  key: 'pid',
  header: 'PID',
  aliases: ['sku', 'product id', 'product', 'item', 'item number', 'material', 'part number'],
  kind: 'pid',
  required: true,
  description:
    'The product id, unique across the installation. Two clients with the same SKU: prefix it with the client (circor-1000).',
  example: 'PUMP-1000',
};

const text = (
  key: string,
  header: string,
  aliases: readonly string[],
  description: string,
  example: string,
  required = false,
): LayoutColumn => ({ key, header, aliases, kind: 'text', required, description, example });

export const PRODUCTS_LAYOUT: DataLoadLayout = {
  entity: 'products',
  title: 'Products',
  description:
    'One row per product and price date. A new PID creates the product; a known PID updates its attributes. The unit cost and price hold from their effective date until the next one; a blank date means since always.',
  columns: [
    PID_COLUMN,
    {
      key: 'client',
      header: 'Client',
      aliases: ['client id', 'customer', 'owner'],
      kind: 'client',
      required: true,
      description: `The client the product belongs to: ${CLIENT_IDS.join(' or ')}.`,
      example: 'internal',
    },
    text('bu', 'Business Unit', ['bu', 'division', 'segment'], 'Business unit.', 'Industrial', true),
    text(
      'pf',
      'Family',
      ['product family', 'pf', 'category', 'product line'],
      'Product family.',
      'Pumps',
      true,
    ),
    text('class', 'Class', ['abc class', 'product class', 'abc'], 'Class (ABC or your own).', 'A'),
    text('region', 'Region', ['sales region', 'market'], 'Region.', 'North America'),
    text('site', 'Site', ['location', 'plant', 'warehouse', 'facility'], 'Stocking site.', 'Houston'),
    text('entityType', 'Entity Type', ['entity', 'type', 'product type'], 'Entity type.', 'Finished Good'),
    text('planner', 'Planner', ['planner name', 'buyer'], 'The planner who owns the product.', 'Dana Lee'),
    {
      key: 'unitCost',
      header: 'Unit Cost',
      aliases: ['cost', 'standard cost', 'cost per unit'],
      kind: 'amount',
      required: true,
      description: 'Cost of one unit, in US dollars.',
      example: '42.50',
    },
    {
      key: 'unitPrice',
      header: 'Unit Price',
      aliases: ['price', 'list price', 'sales price', 'price per unit'],
      kind: 'amount',
      required: true,
      description: 'Price of one unit, in US dollars.',
      example: '79.90',
    },
    {
      key: 'effectiveDate',
      header: 'Effective Date',
      aliases: ['price date', 'valid from', 'effective from', 'effective'],
      kind: 'date',
      required: false,
      description: 'The day the cost and price take effect (yyyy-mm-dd or MM/DD/YYYY); blank: since always.',
      example: '2026-01-04',
    },
  ],
};

export const SALES_HISTORY_LAYOUT: DataLoadLayout = {
  entity: 'sales-history',
  title: 'Sales history',
  description:
    'One row per product and week (or day: days are summed into their Sunday week). A week sent again replaces the earlier values and is audited as a correction. Revenue and cost, when blank, come from the product price and cost in effect that week.',
  columns: [
    PID_COLUMN,
    {
      key: 'week',
      header: 'Week',
      aliases: ['week start', 'time series sk', 'week starting', 'week of'],
      kind: 'week',
      required: false,
      description: "The week's Sunday (yyyy-mm-dd, MM/DD/YYYY or yyyymmdd as Time_Series_sk).",
      example: '2026-11-08',
    },
    {
      key: 'day',
      header: 'Date',
      aliases: ['day', 'order date', 'booking date', 'invoice date'],
      kind: 'date',
      required: false,
      description: 'A day instead of a week: the rows of one week are summed into its Sunday.',
      example: '',
    },
    {
      key: 'units',
      header: 'Units',
      aliases: ['quantity', 'qty', 'sales units', 'booked units', 'actual units'],
      kind: 'units',
      required: true,
      description: 'Units booked in the week (0 or more).',
      example: '120',
    },
    {
      key: 'revenue',
      header: 'Revenue',
      aliases: ['sales', 'revenue dollars', 'sales amount', 'net sales'],
      kind: 'amount',
      required: false,
      description: 'Revenue in US dollars; blank: units × the price in effect that week.',
      example: '9588.00',
    },
    {
      key: 'cost',
      header: 'Cost',
      aliases: ['cogs', 'cost of sales', 'booked cost'],
      kind: 'amount',
      required: false,
      description: 'Cost in US dollars; blank: units × the unit cost in effect that week.',
      example: '',
    },
  ],
  oneOf: [['week', 'day']],
};

const SITE_COLUMN: LayoutColumn = text(
  'site',
  'Site',
  ['location', 'plant', 'warehouse', 'facility', 'dc', 'stocking site'],
  'The site that stocks the product.',
  'Houston',
  true,
);

export const LEAD_TIMES_LAYOUT: DataLoadLayout = {
  entity: 'lead-times',
  title: 'Lead times',
  description:
    'One row per product and stocking site: the replenishment lead time and its variability, and optionally the review period, replenishment frequency and the share of the product demand the site serves. A new product and site starts being stocked there; a blank optional cell keeps the current value.',
  columns: [
    PID_COLUMN,
    SITE_COLUMN,
    text(
      'region',
      'Region',
      ['site region'],
      "The site's region (the inventory page filters by it); blank on a new site: its region in other rows, else the product's.",
      'North America',
    ),
    {
      key: 'leadTimeWeeks',
      header: 'Lead Time Weeks',
      aliases: ['lead time', 'lt weeks', 'lead time wks', 'replenishment lead time'],
      kind: 'duration',
      required: false,
      description: 'Mean lead time in weeks (a part week counts as a whole one: 2.5 → 3).',
      example: '3',
    },
    {
      key: 'leadTimeDays',
      header: 'Lead Time Days',
      aliases: ['lt days', 'lead days', 'lead time in days'],
      kind: 'duration',
      required: false,
      description: 'Mean lead time in days instead of weeks: rounded up to whole weeks (10 → 2).',
      example: '',
    },
    {
      key: 'leadTimeSdWeeks',
      header: 'Lead Time SD Weeks',
      aliases: [
        'lead time sd',
        'lead time std dev',
        'lead time standard deviation',
        'lead time variability',
        'lt sd weeks',
        'sigma lt',
      ],
      kind: 'spread',
      required: false,
      description: 'Standard deviation of the lead time in weeks (0.01 week); blank on a new row: 0.',
      example: '0.5',
    },
    {
      key: 'leadTimeSdDays',
      header: 'Lead Time SD Days',
      aliases: ['lead time std dev days', 'lead time standard deviation days', 'lt sd days'],
      kind: 'spread',
      required: false,
      description: 'Standard deviation of the lead time in days instead of weeks.',
      example: '',
    },
    {
      key: 'reviewPeriod',
      header: 'Review Period',
      aliases: ['review period weeks', 'review weeks', 'review cycle'],
      kind: 'duration',
      required: false,
      description: 'Weeks between reviews of the stock (whole weeks, 1–52); blank on a new row: 1.',
      example: '1',
    },
    {
      key: 'replenishmentFrequency',
      header: 'Replenishment Frequency',
      aliases: ['replenishment frequency weeks', 'order frequency', 'order cycle'],
      kind: 'duration',
      required: false,
      description:
        'Weeks between replenishments (whole weeks, at least the review period); blank on a new row: the review period.',
      example: '2',
    },
    {
      key: 'demandShare',
      header: 'Demand Share',
      aliases: ['share', 'site share', 'demand share percent', 'demand split'],
      kind: 'percent',
      required: false,
      description:
        "Percent of the product's demand this site serves; blank on a new site: what the product's other sites leave, split evenly. A product's sites add up to at most 100.",
      example: '100',
    },
  ],
  oneOf: [['leadTimeWeeks', 'leadTimeDays']],
  atMostOne: [['leadTimeSdWeeks', 'leadTimeSdDays']],
};

export const INVENTORY_POSITIONS_LAYOUT: DataLoadLayout = {
  entity: 'inventory-positions',
  title: 'Inventory positions',
  description:
    'One row per product, site and day: the units on hand that day. The latest position of a product and site is its on hand in inventory planning and starts the supply projection; each position is the stock at the end of its week in the inventory history.',
  columns: [
    PID_COLUMN,
    SITE_COLUMN,
    {
      key: 'asOf',
      header: 'As Of',
      aliases: ['as of date', 'date', 'snapshot date', 'stock date', 'inventory date', 'position date'],
      kind: 'date',
      required: true,
      description: 'The day of the count (not after today).',
      example: '2026-11-21',
    },
    {
      key: 'onHand',
      header: 'On Hand',
      aliases: [
        'on hand units',
        'on hand qty',
        'quantity on hand',
        'qoh',
        'stock',
        'units',
        'qty',
        'unrestricted stock',
      ],
      kind: 'count',
      required: true,
      description: 'Units on hand (whole units, 0 or more).',
      example: '240',
    },
  ],
};

export const OPEN_ORDERS_LAYOUT: DataLoadLayout = {
  entity: 'open-orders',
  title: 'Open orders',
  description:
    'One row per order line: an order (purchase or production) of a product for a site, the units still to arrive and the day they are due. An order sent again with status closed (received, cancelled) no longer counts. The open orders of a product and site are the supply projection receipts in the weeks they are due.',
  columns: [
    {
      key: 'order',
      header: 'Order',
      aliases: [
        'order id',
        'order number',
        'order no',
        'po',
        'po number',
        'purchase order',
        'work order',
        'document',
      ],
      kind: 'text',
      required: true,
      description: 'The order number (with the PID and site, the key of the line).',
      example: 'PO-4500123',
    },
    PID_COLUMN,
    SITE_COLUMN,
    {
      key: 'quantity',
      header: 'Quantity',
      aliases: ['qty', 'open quantity', 'open qty', 'units', 'order quantity', 'quantity due'],
      kind: 'count',
      required: true,
      description: 'Units still to arrive (whole units, 0 or more).',
      example: '500',
    },
    {
      key: 'dueDate',
      header: 'Due Date',
      aliases: [
        'due',
        'delivery date',
        'receipt date',
        'expected date',
        'arrival date',
        'eta',
        'promised date',
      ],
      kind: 'date',
      required: true,
      description:
        'The day the units are due at the site; an open order due in the past is late and still expected.',
      example: '2026-12-07',
    },
    {
      key: 'status',
      header: 'Status',
      aliases: ['order status', 'state', 'line status'],
      kind: 'status',
      required: false,
      description: `${ORDER_STATUSES.open.join(', ')} (blank: open), or ${ORDER_STATUSES.closed.join(', ')}.`,
      example: 'open',
    },
  ],
};

export const DATA_LOAD_LAYOUTS: Record<DataLoadEntity, DataLoadLayout> = {
  products: PRODUCTS_LAYOUT,
  'sales-history': SALES_HISTORY_LAYOUT,
  'lead-times': LEAD_TIMES_LAYOUT,
  'inventory-positions': INVENTORY_POSITIONS_LAYOUT,
  'open-orders': OPEN_ORDERS_LAYOUT,
};
