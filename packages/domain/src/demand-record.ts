import type { EditableField } from './demand-record-fields';

// The field catalogue belongs to the record: one import path for both.
export * from './demand-record-fields';

/**
 * The demand record as the API returns it: one product (PID) in one week (Time_Series_sk, the
 * yyyymmdd of the week's Sunday). Field names are the spec's, so grids and exports use them as-is.
 * Money fields are US dollars; *_Units fields are whole units except the statistical forecasts.
 */
export type DemandRecord = {
  PID: string;
  Time_Series_sk: string;
  BU: string;
  PF: string;
  Class: string;
  Region: string;
  Site: string;
  EntityType: string;
  /** yyyymm of the week's Sunday. */
  Month_Key: string;
  /** ISO-like week label yyyy-Www of the week's Sunday (Sunday-start weeks, week 1 holds Jan 1). */
  Week_Key: string;
  /** yyyy-Qn (calendar fiscal year). */
  Fiscal_Quarter: string;
  /** The week's Sunday as yyyy-mm-dd. */
  Date: string;
  /** The week's Sunday as an ISO timestamp at midnight UTC. */
  Time_Series: string;
  Rank: number | null;
  Act_Bkg_Units: number | null;
  Act_Bkg_Cost: number | null;
  Act_Rev_Dlrs: number | null;
  Naïve_Rev_Mfg_Fcst_Bk_Units: number | null;
  Ensemble_Fcst_Units: number | null;
  Rev_Pln_Ovrd_Percent: number | null;
  Rev_Pln_Ovrd_Units: number | null;
  Prelim_Pln_Units: number | null;
  Prelim_Pln_Cost: number | null;
  Prelim_Pln_Rev_Dlrs: number | null;
  SOP_Pln_Ovrd_Percent: number | null;
  SOP_Pln_Ovrd_Units: number | null;
  Final_Pln_Units: number | null;
  Final_Bk_Pln_Cost: number | null;
  Final_Pln_Rev_Dlrs: number | null;
  Reason_Code: ReasonCode | null;
  Comments: string | null;
  /** Unit cost of the product in dollars. */
  Cost: number;
  Delta_Prelim_to_Final_Pln_Cost: number | null;
  Delta_Prelim_to_Final_Pln_Units: number | null;
  Delta_Prelim_to_Final_Pln_Rev_Dlrs: number | null;
  P1_Pub_Pln_Units: number | null;
  P1_Pub_Pln_Cost: number | null;
  P1_Pub_Pln_Rev_Dlrs: number | null;
  P2_Pub_Pln_Units: number | null;
  P2_Pub_Pln_Cost: number | null;
  P2_Pub_Pln_Rev_Dlrs: number | null;
  last_updated_at: string | null;
  last_updated_by: string | null;
  /** Optimistic-concurrency version: send it back with an update to be told when someone else changed the record. */
  version: number;
};

/** The reason codes a planner may give for an override (spec §5). */
export const REASON_CODES = [
  'Market Trend',
  'Supply Chain',
  'Seasonal Adjustment',
  'Strategic Initiative',
  'Other',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export type EditableValues = Pick<DemandRecord, EditableField>;

export const COMMENTS_MAX_LENGTH = 500;
export const PERCENT_OVERRIDE_MIN = 0;
export const PERCENT_OVERRIDE_MAX = 100;

/** Client that owns internal (non-customer) data. */
export const INTERNAL_CLIENT = 'internal';
/** The customer with its own branded context (spec §1). */
export const CUSTOMER_CLIENT = 'circor';
export type ClientId = typeof INTERNAL_CLIENT | typeof CUSTOMER_CLIENT;
export const CLIENT_IDS = [INTERNAL_CLIENT, CUSTOMER_CLIENT] as const;

export type RecordKey = { pid: string; timeSeriesSk: string };
