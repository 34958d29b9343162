import { savedViewEndpoints, type SavedView, type SavedViewInput, type SavedViewUpdate } from '@ps/domain';
import { callEndpoint } from '@/lib/api-client';

export function fetchSavedViews(signal?: AbortSignal): Promise<SavedView[]> {
  return callEndpoint(savedViewEndpoints.list, { signal });
}

export function createSavedView(input: SavedViewInput): Promise<SavedView> {
  return callEndpoint(savedViewEndpoints.create, { body: input });
}

export function updateSavedView(id: number, update: SavedViewUpdate): Promise<SavedView> {
  return callEndpoint(savedViewEndpoints.update, { params: { id }, body: update });
}

export function deleteSavedView(id: number): Promise<{ id: number }> {
  return callEndpoint(savedViewEndpoints.remove, { params: { id } });
}
