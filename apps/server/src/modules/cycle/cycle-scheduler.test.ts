import type { CycleSchedule } from '@ps/domain';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timerScheduler } from './cycle-scheduler';

const MONDAY_SIX_BERLIN: CycleSchedule = {
  isEnabled: true,
  frequency: 'weekly',
  weekday: 1,
  time: '06:00',
  timeZone: 'Europe/Berlin',
};
const log = { error: () => undefined } as unknown as FastifyBaseLogger;

describe('the embedded database’s cycle timer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // Friday 27 November 2026, 12:00 UTC.
    vi.setSystemTime(new Date('2026-11-27T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('fires at the next Monday 06:00 in Berlin (05:00Z), then a week later', async () => {
    const fired: string[] = [];
    const scheduler = timerScheduler(async () => {
      fired.push(new Date().toISOString());
      return Promise.resolve();
    }, log);
    await scheduler.apply(MONDAY_SIX_BERLIN);
    await vi.advanceTimersToNextTimerAsync();
    expect(fired).toEqual(['2026-11-30T05:00:00.000Z']);
    await vi.advanceTimersToNextTimerAsync();
    expect(fired).toEqual(['2026-11-30T05:00:00.000Z', '2026-12-07T05:00:00.000Z']);
    await scheduler.stop();
  });

  it('sets itself again when the schedule changes, and not at all when it is off', async () => {
    const fired: string[] = [];
    const scheduler = timerScheduler(async () => {
      fired.push(new Date().toISOString());
      return Promise.resolve();
    }, log);
    await scheduler.apply(MONDAY_SIX_BERLIN);
    await scheduler.apply({ ...MONDAY_SIX_BERLIN, frequency: 'daily', time: '18:30' });
    await vi.advanceTimersToNextTimerAsync();
    expect(fired).toEqual(['2026-11-27T17:30:00.000Z']);
    await scheduler.apply({ ...MONDAY_SIX_BERLIN, isEnabled: false });
    expect(vi.getTimerCount()).toBe(0);
    await scheduler.stop();
  });
});
