import { z } from 'zod';
import { DRILL_DOWNS, VIEW_LEVELS } from '../planning-grid';
import { ZAnswerLocale, ZPageFilters } from './chat';

/** Spec §3: the help contexts and their titles ('unknown' is 'Help'). */
export const HELP_CONTEXT_TITLES = {
  'forecast-override': 'Forecast Overrides',
  'category-selection': 'Category Management',
  'business-unit-planning': 'Business Unit Planning',
  'time-drill-down': 'Time-Drill Down',
  'variance-analysis': 'Variance Analysis',
  'data-validation': 'Data Validation',
  'excel-import': 'Excel Import',
  'performance-metrics': 'Performance Metrics',
  'planning-workflow': 'Planning Workflow',
  'data-aggregation': 'Data Aggregation',
  unknown: 'Help',
} as const;
export type HelpContext = keyof typeof HELP_CONTEXT_TITLES;
export const HELP_CONTEXTS = Object.keys(HELP_CONTEXT_TITLES) as HelpContext[];

/** Spec §9: help insights are cached 5 minutes and retried once. */
export const HELP_CACHE_MS = 5 * 60_000;
export const HELP_RETRIES = 1;

/** What the screen knows and the server cannot: its filters, pending edits, selected product. */
export const ZHelpCurrentData = z.strictObject({
  filters: ZPageFilters.optional(),
  pendingChanges: z.number().int().min(0).max(1_000_000).optional(),
  selectedPid: z.string().trim().min(1).max(50).optional(),
  clientContext: z.string().max(50).optional(),
});
export type HelpCurrentData = z.infer<typeof ZHelpCurrentData>;

export const ZHelpRequest = z.strictObject({
  context: z.enum(HELP_CONTEXTS as [HelpContext, ...HelpContext[]]),
  userRole: z.string().trim().max(100).optional(),
  currentData: ZHelpCurrentData.optional(),
  specificQuestion: z.string().trim().max(1000).optional(),
  viewLevel: z.enum(VIEW_LEVELS).optional(),
  drillDownType: z.enum(DRILL_DOWNS).optional(),
  locale: ZAnswerLocale.optional(),
});
export type HelpRequest = z.infer<typeof ZHelpRequest>;

/** Spec §3: the fields the bubble reads. */
export type HelpResponse = {
  title: string;
  summary: string;
  explanation: string;
  recommendations: string[];
  nextSteps: string[];
  relatedConcepts: string[];
  troubleshooting: string[];
};

export const ZHelpResponse = z.strictObject({
  title: z.string(),
  summary: z.string(),
  explanation: z.string(),
  recommendations: z.array(z.string()),
  nextSteps: z.array(z.string()),
  relatedConcepts: z.array(z.string()),
  troubleshooting: z.array(z.string()),
}) satisfies z.ZodType<HelpResponse>;
