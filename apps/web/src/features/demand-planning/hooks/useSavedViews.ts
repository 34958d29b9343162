import type { SavedView, SavedViewInput, SavedViewUpdate } from '@ps/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFirstScreenShown } from '@/lib/first-screen';
import { createSavedView, deleteSavedView, fetchSavedViews, updateSavedView } from '../api/saved-views.api';

export const SAVED_VIEWS_KEY = ['demand-planning', 'saved-views'] as const;

export const savedViewsQuery = () =>
  queryOptions({ queryKey: SAVED_VIEWS_KEY, queryFn: ({ signal }) => fetchSavedViews(signal) });

const byName = (a: SavedView, b: SavedView) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;

/**
 * The signed-in user's saved grid views; each change answers the view, put straight into the list.
 * The list is first asked for once the page has shown its first rows (lib/first-screen.ts); a link
 * that names a view reads it at once (DemandPlanningPage).
 */
export function useSavedViews() {
  const client = useQueryClient();
  const list = useQuery({ ...savedViewsQuery(), enabled: useFirstScreenShown() });
  const put = (view: SavedView) =>
    client.setQueryData<SavedView[]>(SAVED_VIEWS_KEY, (views = []) =>
      [...views.filter((v) => v.id !== view.id), view].sort(byName),
    );
  const create = useMutation({
    mutationFn: (input: SavedViewInput) => createSavedView(input),
    onSuccess: put,
  });
  const update = useMutation({
    mutationFn: ({ id, change }: { id: number; change: SavedViewUpdate }) => updateSavedView(id, change),
    onSuccess: put,
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteSavedView(id),
    onSuccess: ({ id }) =>
      client.setQueryData<SavedView[]>(SAVED_VIEWS_KEY, (views = []) => views.filter((v) => v.id !== id)),
  });
  return { views: list.data ?? [], isLoaded: list.isSuccess, error: list.error, create, update, remove };
}
