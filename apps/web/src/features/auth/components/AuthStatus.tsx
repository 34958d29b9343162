import { Loader2Icon } from 'lucide-react';

/** A full-screen progress line for the sign-in states ('Verifying authentication...' and the like). */
export function AuthStatus({ message }: { message: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[50vh] flex-1 flex-col items-center justify-center gap-3 bg-background p-8 text-muted-foreground"
    >
      <Loader2Icon className="size-8 animate-spin text-primary" aria-hidden />
      <p className="text-sm">{message}</p>
    </div>
  );
}
