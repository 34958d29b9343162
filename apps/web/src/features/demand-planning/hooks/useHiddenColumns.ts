import { useCallback, useState } from 'react';
import { hiddenColumnsKey, parseHiddenColumns } from '../utils/column-choice';

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The columns this user hid in the planning grid, kept in this browser under their user id, so a
 * reload (or a saved view opened) shows the same columns and another user of the browser their own.
 */
export function useHiddenColumns(userId: string): [string[], (hidden: string[]) => void] {
  const key = hiddenColumnsKey(userId);
  const [state, setState] = useState(() => ({ key, hidden: parseHiddenColumns(readStored(key)) }));
  // Another user signed in on this page: their own choice.
  const current = state.key === key ? state.hidden : parseHiddenColumns(readStored(key));
  const update = useCallback(
    (hidden: string[]) => {
      setState({ key, hidden });
      try {
        localStorage.setItem(key, JSON.stringify({ hidden }));
      } catch {
        // Storage full or blocked: the choice holds for this visit only.
      }
    },
    [key],
  );
  return [current, update];
}
