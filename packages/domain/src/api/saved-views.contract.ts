import { z } from 'zod';
import { ZRowId } from './row-id';
import {
  DRILL_DOWNS,
  GRID_PAGE_SIZES,
  SORT_DIRECTIONS,
  VIEW_LEVELS,
  ZGridPeriodChoice,
} from '../planning-grid';
import { defineEndpoint } from './endpoint';

/** A saved view's name as the user reads it in the Views menu. */
export const SAVED_VIEW_NAME_MAX = 60;
/** Enough for any planner's list; a bound so one account cannot fill the table. */
export const SAVED_VIEWS_PER_USER_MAX = 200;

const ZFilterValues = z.array(z.string().min(1).max(200)).max(1000);
/** Grid field names (and the grid's own column ids such as `actions`, `periodLabel`). */
const ZColumnId = z.string().regex(/^[\wï]{1,60}$/, 'must be a column name');

/** What a saved view reopens: the grid state the page URL carries, plus the hidden columns. */
export const ZSavedViewState = z.strictObject({
  layout: z.enum(['table', 'time-phased']),
  viewLevel: z.enum(VIEW_LEVELS),
  drillDown: z.enum(DRILL_DOWNS),
  bu: ZFilterValues,
  pf: ZFilterValues,
  region: ZFilterValues,
  search: z.string().max(200),
  sort: z.strictObject({ field: ZColumnId, dir: z.enum(SORT_DIRECTIONS) }).nullable(),
  pageSize: z.union(GRID_PAGE_SIZES.map((size) => z.literal(size))),
  hiddenColumns: z.array(ZColumnId).max(200),
  /** The weeks the view covers; views saved before periods existed reopen on the horizon. */
  period: ZGridPeriodChoice.optional(),
});
export type SavedViewState = z.infer<typeof ZSavedViewState>;

const ZSavedViewName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(SAVED_VIEW_NAME_MAX, `must be at most ${SAVED_VIEW_NAME_MAX} characters`);

export const ZSavedViewInput = z.strictObject({ name: ZSavedViewName, state: ZSavedViewState });
export type SavedViewInput = z.input<typeof ZSavedViewInput>;

/** A rename, a new state, or both. */
export const ZSavedViewUpdate = z
  .strictObject({ name: ZSavedViewName.optional(), state: ZSavedViewState.optional() })
  .refine((update) => update.name !== undefined || update.state !== undefined, 'name or state is required');
export type SavedViewUpdate = z.input<typeof ZSavedViewUpdate>;

export const ZSavedView = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  state: ZSavedViewState,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SavedView = z.infer<typeof ZSavedView>;

const ZSavedViewParams = z.strictObject({
  id: ZRowId,
});

/**
 * Named views of the demand planning grid, each user's own: another user's view answers 404 as
 * an unknown one does, so ids reveal nothing.
 */
export const savedViewEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/saved-views',
    access: 'signed-in',
    summary: "The caller's saved grid views, by name",
    response: { data: z.array(ZSavedView) },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/saved-views',
    access: 'signed-in',
    summary: 'Saves the grid view under a new name (unique per user, 1–60 characters)',
    body: ZSavedViewInput,
    status: 201,
    response: { data: ZSavedView },
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/saved-views/:id',
    access: 'signed-in',
    summary: "Renames one of the caller's saved views or replaces what it holds",
    params: ZSavedViewParams,
    body: ZSavedViewUpdate,
    response: { data: ZSavedView },
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/saved-views/:id',
    access: 'signed-in',
    summary: "Deletes one of the caller's saved views",
    params: ZSavedViewParams,
    response: { data: z.strictObject({ id: z.number().int() }) },
  }),
};
