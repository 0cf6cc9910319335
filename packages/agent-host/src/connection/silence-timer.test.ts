import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SilenceTimer } from './silence-timer.js';

describe('SilenceTimer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires after the silence, later when reset, and not while paused', () => {
    let fired = 0;
    let paused = false;
    const timer = new SilenceTimer(
      1000,
      () => fired++,
      () => paused,
    );
    vi.advanceTimersByTime(900);
    timer.reset();
    vi.advanceTimersByTime(900);
    expect(fired).toBe(0);
    paused = true;
    vi.advanceTimersByTime(5000);
    expect(fired).toBe(0);
    paused = false;
    timer.reset();
    vi.advanceTimersByTime(999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    timer.clear();
  });
});
