import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  afterFirstScreen,
  afterFirstScreenSettled,
  isFirstScreenShown,
  markFirstScreenShown,
  markFirstScreenShownAfterPaint,
  IDLE_FALLBACK_MS,
  resetFirstScreenForTests,
  SHOWN_AT_LATEST_MS,
  startFirstScreenClock,
} from '../first-screen';

describe('the first screen', () => {
  beforeEach(() => {
    // performance.now too: the settle wait is measured from the moment the screen showed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    resetFirstScreenForTests();
  });
  afterEach(() => {
    resetFirstScreenForTests();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('holds deferred work until the screen says it has shown its content', () => {
    const task = vi.fn();
    afterFirstScreen(task);
    vi.advanceTimersByTime(SHOWN_AT_LATEST_MS * 2);
    expect(task).not.toHaveBeenCalled();
    markFirstScreenShown();
    expect(task).toHaveBeenCalledTimes(1);
    // Once shown, later work runs at once, and marking again runs nothing twice.
    const later = vi.fn();
    afterFirstScreen(later);
    markFirstScreenShown();
    expect(later).toHaveBeenCalledTimes(1);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs nothing that was cancelled before the screen showed', () => {
    const task = vi.fn();
    const cancel = afterFirstScreen(task);
    cancel();
    markFirstScreenShown();
    expect(task).not.toHaveBeenCalled();
  });

  it('counts as shown after SHOWN_AT_LATEST_MS when the screen never says so', () => {
    const task = vi.fn();
    startFirstScreenClock();
    afterFirstScreen(task);
    vi.advanceTimersByTime(SHOWN_AT_LATEST_MS - 1);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(isFirstScreenShown()).toBe(true);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('marks the screen shown after the frame that paints it, not in the task that drew it', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    markFirstScreenShownAfterPaint();
    expect(isFirstScreenShown()).toBe(false);
    frames.shift()!(0);
    expect(isFirstScreenShown()).toBe(false);
    vi.advanceTimersByTime(0);
    expect(isFirstScreenShown()).toBe(true);
  });

  it('reads ahead only once the first rows have been on screen a while and the browser is idle', () => {
    const readAhead = vi.fn();
    afterFirstScreenSettled(readAhead, 1_000);
    vi.advanceTimersByTime(10_000);
    expect(readAhead).not.toHaveBeenCalled();

    markFirstScreenShown();
    vi.advanceTimersByTime(999);
    expect(readAhead).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1 + IDLE_FALLBACK_MS);
    expect(readAhead).toHaveBeenCalledTimes(1);

    // Long after the first screen: only the idle wait is left.
    const next = vi.fn();
    afterFirstScreenSettled(next, 1_000);
    vi.advanceTimersByTime(IDLE_FALLBACK_MS);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('reads nothing ahead for a view left before it started', () => {
    const readAhead = vi.fn();
    const cancel = afterFirstScreenSettled(readAhead, 1_000);
    markFirstScreenShown();
    vi.advanceTimersByTime(500);
    cancel();
    vi.advanceTimersByTime(5_000);
    expect(readAhead).not.toHaveBeenCalled();
  });
});
