import { useEffect } from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { parseToastEventDetail, TOAST_EVENT, TOAST_LIFETIME_MS } from './toast-store';
import { toast, useToast } from './use-toast';

/**
 * Renders the toast queue (one at a time, 5 s each). Also listens for `ps:toast` window events
 * so code outside React can raise a toast:
 * `window.dispatchEvent(new CustomEvent('ps:toast', { detail: { title, description, variant } }))`.
 */
export function Toaster() {
  const { toasts, dismiss } = useToast();

  useEffect(() => {
    const onToastEvent = (event: Event) => {
      const input = parseToastEventDetail((event as CustomEvent<unknown>).detail);
      if (input) toast(input);
    };
    window.addEventListener(TOAST_EVENT, onToastEvent);
    return () => window.removeEventListener(TOAST_EVENT, onToastEvent);
  }, []);

  return (
    <ToastProvider duration={TOAST_LIFETIME_MS}>
      {toasts.map((item) => (
        <Toast
          key={item.id}
          data-testid="toast"
          variant={item.variant}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismiss(item.id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{item.title}</ToastTitle>
            {item.description && <ToastDescription>{item.description}</ToastDescription>}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport />
    </ToastProvider>
  );
}
