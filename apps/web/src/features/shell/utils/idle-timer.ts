/** Activity closer together than this moves the deadline once (pointer moves fire very often). */
const ACTIVITY_GRANULARITY_MS = 1_000;

export type IdleTimer = {
  /** The user did something: the deadline starts again from now. */
  activity: () => void;
  stop: () => void;
};

/**
 * Calls `onIdle` once when `limitMs` pass without activity (user setting sessionTimeout). The
 * deadline is checked against the clock when the timer fires, so a tab the browser suspended
 * (sleep, background throttling) still signs out as soon as it runs again.
 */
export function startIdleTimer(limitMs: number, onIdle: () => void, now: () => number = Date.now): IdleTimer {
  let lastActivity = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let isStopped = false;
  const arm = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(check, delay);
  };
  const check = () => {
    const left = lastActivity + limitMs - now();
    if (left > 0) return arm(left);
    isStopped = true;
    onIdle();
  };
  arm(limitMs);
  return {
    activity: () => {
      if (isStopped) return;
      const at = now();
      if (at - lastActivity < ACTIVITY_GRANULARITY_MS) return;
      lastActivity = at;
    },
    stop: () => {
      isStopped = true;
      clearTimeout(timer);
    },
  };
}
