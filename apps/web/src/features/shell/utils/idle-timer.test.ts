import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIdleTimer } from './idle-timer';

const MINUTE = 60_000;

describe('startIdleTimer (sessionTimeout)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('signs out once after the limit without activity', () => {
    const onIdle = vi.fn();
    startIdleTimer(30 * MINUTE, onIdle);
    vi.advanceTimersByTime(30 * MINUTE - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts the limit from the last activity', () => {
    const onIdle = vi.fn();
    const timer = startIdleTimer(60 * MINUTE, onIdle);
    vi.advanceTimersByTime(50 * MINUTE);
    timer.activity();
    vi.advanceTimersByTime(59 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('does nothing after stop', () => {
    const onIdle = vi.fn();
    const timer = startIdleTimer(30 * MINUTE, onIdle);
    timer.stop();
    vi.advanceTimersByTime(120 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
