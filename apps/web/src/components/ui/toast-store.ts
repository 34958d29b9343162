/**
 * App-wide toast queue (spec §9: notifications live 5 s, one shows at a time). A plain module store
 * so code outside React (API client, sign-in) can raise toasts too; React reads it through useToast().
 */

export type ToastVariant = 'default' | 'destructive';

export type ToastInput = {
  title: string;
  description?: string | undefined;
  variant?: ToastVariant | undefined;
};

export type ToastItem = ToastInput & {
  id: string;
  /** Notification timestamp (spec §3: a notification has id, timestamp and content). */
  createdAt: number;
};

/** Spec §9: toast limit 1 — a new toast replaces the one showing. */
export const TOAST_LIMIT = 1;
/** Spec §9: notification lifetime 5 s. */
export const TOAST_LIFETIME_MS = 5000;

let toasts: ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): ToastItem[] {
  return toasts;
}

/** Closes a toast (or all when no id is given) and drops it from the queue. */
export function dismissToast(id?: string): void {
  emit(id === undefined ? [] : toasts.filter((item) => item.id !== id));
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  nextId += 1;
  const id = String(nextId);
  const item: ToastItem = { ...input, id, createdAt: Date.now() };
  emit([item, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Name of the window event non-React code may dispatch to raise a toast. */
export const TOAST_EVENT = 'ps:toast';

/** Reads a `ps:toast` event's detail, ignoring anything that is not a toast. */
export function parseToastEventDetail(detail: unknown): ToastInput | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const { title, description, variant } = detail as Record<string, unknown>;
  if (typeof title !== 'string' || title.length === 0) return null;
  return {
    title,
    description: typeof description === 'string' ? description : undefined,
    variant: variant === 'destructive' ? 'destructive' : 'default',
  };
}
