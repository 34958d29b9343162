import { CLIENT_IDS } from '../demand-record';

/**
 * The layouts of the admin's bulk data loads (docs/data-integration.md): one per entity, the same
 * columns in a CSV file or the first sheet of an .xlsx workbook. Headers are matched without
 * regard to case, spaces or punctuation, by their name or one of their aliases.
 */
export const DATA_LOAD_ENTITIES = ['products', 'sales-history'] as const;
export type DataLoadEntity = (typeof DATA_LOAD_ENTITIES)[number];

export type LayoutColumnKind = 'pid' | 'text' | 'client' | 'amount' | 'units' | 'date' | 'week';

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
};

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

export const DATA_LOAD_LAYOUTS: Record<DataLoadEntity, DataLoadLayout> = {
  products: PRODUCTS_LAYOUT,
  'sales-history': SALES_HISTORY_LAYOUT,
};
