import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buttonThresholdMs, createButtonVisibility, type ButtonTime } from './button-visibility';

const at = (seconds: number): ButtonTime => ({ hours: 0, minutes: 0, seconds });

describe('button threshold (visitor-behaviour §4.5)', () => {
  it.each([
    ['the wait itself for a longer video', { hours: 0, minutes: 1, seconds: 30 }, 600, 90_000],
    ['hours and minutes converted', { hours: 1, minutes: 2, seconds: 3 }, 7200, 3_723_000],
    ['duration minus 30 s for a shorter video', { hours: 0, minutes: 10, seconds: 0 }, 300, 270_000],
    ['never below 0 for a very short video', at(60), 12, 0],
    ['the wait when no duration is known', at(8), null, 8000],
  ] as const)('%s', (_name, time, duration, expected) => {
    expect(buttonThresholdMs(time, duration)).toBe(expected);
  });
});

describe('button visibility rules (visitor-behaviour §4.5)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = (overrides: Partial<Parameters<typeof createButtonVisibility>[0]> = {}) => {
    const show = vi.fn();
    const visibility = createButtonVisibility({
      buttonTime: at(8),
      isComplete: false,
      silentPlayer: false,
      noVideo: false,
      show,
      ...overrides,
    });
    return { show, visibility };
  };

  it('stays hidden before buttonTime and shows once playback reaches it', () => {
    const { show, visibility } = make();
    visibility.handle({ type: 'duration', duration: 12 });
    visibility.handle({ type: 'play', time: 0 });
    visibility.handle({ type: 'timeupdate', time: 7.9 });
    expect(show).not.toHaveBeenCalled();
    visibility.handle({ type: 'timeupdate', time: 8.0 });
    visibility.handle({ type: 'timeupdate', time: 8.3 });
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('uses duration minus 30 s when the video is shorter than the wait', () => {
    const { show, visibility } = make({ buttonTime: at(50) });
    visibility.handle({ type: 'duration', duration: 40 });
    visibility.handle({ type: 'play', time: 0 });
    visibility.handle({ type: 'timeupdate', time: 9.9 });
    expect(show).not.toHaveBeenCalled();
    visibility.handle({ type: 'timeupdate', time: 10 });
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('shows when the video ends before the button was shown', () => {
    const { show, visibility } = make({ buttonTime: at(600) });
    visibility.handle({ type: 'play', time: 0 });
    visibility.handle({ type: 'timeupdate', time: 5 });
    visibility.handle({ type: 'ended', time: 12 });
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('shows 500 ms after load on a completed page', () => {
    const { show } = make({ isComplete: true, buttonTime: at(600) });
    vi.advanceTimersByTime(499);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('falls back to 10 s after play plus the wait when the player goes quiet', () => {
    const { show, visibility } = make({ buttonTime: at(8) });
    visibility.handle({ type: 'play', time: 0 });
    vi.advanceTimersByTime(10_000 + 7_999);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('does not use the fallback once the player reports time', () => {
    const { show, visibility } = make({ buttonTime: at(30) });
    visibility.handle({ type: 'duration', duration: 120 });
    visibility.handle({ type: 'play', time: 0 });
    visibility.handle({ type: 'timeupdate', time: 1 });
    vi.advanceTimersByTime(60_000);
    expect(show).not.toHaveBeenCalled();
  });

  it('starts the fallback on ready for a player that reports nothing (generic embed)', () => {
    const { show, visibility } = make({ silentPlayer: true, buttonTime: at(5) });
    visibility.handle({ type: 'ready' });
    vi.advanceTimersByTime(14_999);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('runs the wait from load on a page without a video', () => {
    const { show } = make({ noVideo: true, buttonTime: at(3) });
    vi.advanceTimersByTime(2999);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('shows once buttonTime has passed on the wall clock since the page showed when the video fails to load', () => {
    const { show, visibility } = make();
    // The video's error arrives 3 s after the page showed; no play event will ever come.
    vi.advanceTimersByTime(3000);
    visibility.handle({ type: 'error' });
    vi.advanceTimersByTime(4999);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledOnce();
  });

  it('shows at once when the video fails after buttonTime has already passed', () => {
    const { show, visibility } = make();
    vi.advanceTimersByTime(9000);
    visibility.handle({ type: 'error' });
    vi.advanceTimersByTime(0);
    expect(show).toHaveBeenCalledOnce();
    // A second error report changes nothing.
    visibility.handle({ type: 'error' });
    vi.runAllTimers();
    expect(show).toHaveBeenCalledOnce();
  });

  it('stops its timers when disposed (the page changed)', () => {
    const { show, visibility } = make({ isComplete: true });
    visibility.dispose();
    vi.advanceTimersByTime(60_000);
    expect(show).not.toHaveBeenCalled();
  });
});
