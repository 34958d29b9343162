import { useSyncExternalStore } from 'react';
import { dismissToast, getToasts, subscribeToasts, toast, type ToastItem } from './toast-store';

export { toast } from './toast-store';
export type { ToastInput, ToastVariant } from './toast-store';

/** The toasts showing now, plus toast() to raise one and dismiss() to close one or all. */
export function useToast(): {
  toasts: ToastItem[];
  toast: typeof toast;
  dismiss: typeof dismissToast;
} {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return { toasts, toast, dismiss: dismissToast };
}
