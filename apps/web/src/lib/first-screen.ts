import { useSyncExternalStore } from 'react';

/*
 * What a cold load needs before its first screen is on screen is that screen's own data; the rest
 * (notifications, read-ahead, secondary panels' lists, the live-update stream) waits until the
 * screen has shown its content. A screen that has rows to wait for marks the moment itself (the
 * planning page, once its grid's first rows are drawn); any other screen counts as shown once the
 * frame has rendered it and the browser is idle. A load that never gets there (a failed page, a
 * screen left before its rows came) counts as shown after SHOWN_AT_LATEST_MS all the same.
 *
 * Each of those requests otherwise answers while the first rows are being drawn (the page renders
 * again for each) and, on the one-statement-at-a-time embedded database, queues its statement
 * beside the first page's.
 */

/** The latest moment, from the app's start, at which the first screen counts as shown. */
export const SHOWN_AT_LATEST_MS = 10_000;

let isShown = false;
let shownAt = 0;
const listeners = new Set<() => void>();
let latest: ReturnType<typeof setTimeout> | undefined;

/** The first screen has shown its content (or given up on it): deferred work may start. */
export function markFirstScreenShown(): void {
  if (isShown) return;
  isShown = true;
  shownAt = performance.now();
  clearTimeout(latest);
  for (const listener of [...listeners]) listener();
}

/**
 * The first screen's content is in the document: marked shown once the browser has painted it (the
 * frame after this one), so what the mark starts (renders included) does not delay that paint.
 */
export function markFirstScreenShownAfterPaint(): void {
  if (isShown) return;
  requestAnimationFrame(() => setTimeout(markFirstScreenShown, 0));
}

export function isFirstScreenShown(): boolean {
  return isShown;
}

/** Arms the fallback: called once as the app starts. */
export function startFirstScreenClock(timeoutMs = SHOWN_AT_LATEST_MS): void {
  if (isShown || latest !== undefined) return;
  latest = setTimeout(markFirstScreenShown, timeoutMs);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** False until the first screen has shown its content; then true for the rest of the page's life. */
export function useFirstScreenShown(): boolean {
  return useSyncExternalStore(subscribe, isFirstScreenShown, isFirstScreenShown);
}

/** `task` once the first screen is shown (at once if it is); the returned function cancels it. */
export function afterFirstScreen(task: () => void): () => void {
  if (isShown) {
    task();
    return () => undefined;
  }
  let isCancelled = false;
  const unsubscribe = subscribe(() => {
    unsubscribe();
    if (!isCancelled) task();
  });
  return () => {
    isCancelled = true;
    unsubscribe();
  };
}

/** Where the browser cannot say when it is idle, whenIdle waits this long instead. */
export const IDLE_FALLBACK_MS = 200;

/** `task` when the browser has nothing else to do (soon after, where it cannot say); cancellable. */
export function whenIdle(task: () => void, timeoutMs = 2_000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, IDLE_FALLBACK_MS);
  return () => clearTimeout(id);
}

/**
 * `task` once the first screen has been shown for `settleMs` and the browser is then idle: work
 * that only reads ahead (a planner rarely acts in the first second, and a page opened and left
 * again should not leave it behind on the server). Later on, only the idle wait remains.
 */
export function afterFirstScreenSettled(task: () => void, settleMs: number): () => void {
  let cancelStep = () => undefined as void;
  const cancelShown = afterFirstScreen(() => {
    const wait = Math.max(0, shownAt + settleMs - performance.now());
    const timer = setTimeout(() => {
      cancelStep = whenIdle(task);
    }, wait);
    cancelStep = () => clearTimeout(timer);
  });
  return () => {
    cancelShown();
    cancelStep();
  };
}

/** For tests: back to a page that has shown nothing. */
export function resetFirstScreenForTests(): void {
  isShown = false;
  shownAt = 0;
  clearTimeout(latest);
  latest = undefined;
  listeners.clear();
}
