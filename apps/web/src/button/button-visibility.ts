import { TIMING } from '@embudo/contracts/runtime';

export interface ButtonTime {
  hours: number;
  minutes: number;
  seconds: number;
}

export const waitMs = (time: ButtonTime): number =>
  ((time.hours * 60 + time.minutes) * 60 + time.seconds) * 1000;

/**
 * The playback time at which the button shows (visitor-behaviour §4.5): the configured wait; for a video shorter
 * than that, its duration minus 30 s (not below 0); without a known duration, the wait itself.
 */
export function buttonThresholdMs(time: ButtonTime, durationSeconds: number | null): number {
  const wait = waitMs(time);
  if (durationSeconds === null || !Number.isFinite(durationSeconds) || durationSeconds <= 0) return wait;
  const durationMs = durationSeconds * 1000;
  if (durationMs < wait) return Math.max(0, durationMs - TIMING.buttonShortVideoMargin);
  return wait;
}

export const reachedThreshold = (
  currentSeconds: number,
  time: ButtonTime,
  durationSeconds: number | null,
): boolean => currentSeconds * 1000 >= buttonThresholdMs(time, durationSeconds);

export interface VisibilityEvent {
  type: 'ready' | 'error' | 'play' | 'pause' | 'timeupdate' | 'seeked' | 'ended' | 'duration';
  time?: number;
  duration?: number;
}

export interface VisibilityOptions {
  buttonTime: ButtonTime;
  isComplete: boolean;
  /** The player reports no playback events (the generic embed): the fallback starts on ready. */
  silentPlayer: boolean;
  /** No video at all: the wait runs from the moment the page is shown. */
  noVideo: boolean;
  show: () => void;
  setTimeout?: (run: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** The wall clock, in ms; Date.now by default. */
  now?: () => number;
}

/**
 * The rules of visitor-behaviour §4.5 for one page: shown at `buttonTime` of playback (duration minus 30 s for a
 * shorter video); when the video ends; 500 ms after load on a completed page; when the player
 * goes quiet, 10 s after play plus the wait; and, when the video cannot load at all, once the wait
 * has passed on the wall clock since the page showed, so that a broken video never strands the
 * visitor without the button. `show` is called once.
 */
export function createButtonVisibility(options: VisibilityOptions) {
  const later = options.setTimeout ?? ((run, ms) => globalThis.setTimeout(run, ms));
  const cancel =
    options.clearTimeout ??
    ((handle) => {
      globalThis.clearTimeout(handle as number);
    });
  const now = options.now ?? Date.now;
  const shownAt = now();
  const wait = waitMs(options.buttonTime);
  let shown = false;
  let failed = false;
  let duration: number | null = null;
  let fallback: unknown = null;
  const timers = new Set<unknown>();

  const show = () => {
    if (shown) return;
    shown = true;
    stop();
    options.show();
  };
  const after = (ms: number, run: () => void) => {
    const handle = later(() => {
      timers.delete(handle);
      run();
    }, ms);
    timers.add(handle);
    return handle;
  };
  const stop = () => {
    for (const handle of timers) cancel(handle);
    timers.clear();
    fallback = null;
  };
  const armFallback = () => {
    if (fallback !== null || shown) return;
    fallback = after(TIMING.buttonFallbackTimer, () => {
      fallback = after(wait, show);
    });
  };
  const clearFallback = () => {
    if (fallback === null) return;
    cancel(fallback);
    timers.delete(fallback);
    fallback = null;
  };

  if (options.isComplete) after(TIMING.buttonCompleteDelay, show);
  if (options.noVideo) after(wait, show);

  return {
    handle(event: VisibilityEvent) {
      if (shown) return;
      switch (event.type) {
        case 'duration':
          if (event.duration !== undefined) duration = event.duration;
          return;
        case 'ready':
          if (options.silentPlayer) armFallback();
          return;
        case 'play':
          armFallback();
          if (reachedThreshold(event.time ?? 0, options.buttonTime, duration)) show();
          return;
        case 'timeupdate':
          // The player speaks: the time rule decides, the quiet-player fallback is not needed.
          clearFallback();
          if (reachedThreshold(event.time ?? 0, options.buttonTime, duration)) show();
          return;
        case 'ended':
          show();
          return;
        case 'error':
          if (failed) return;
          failed = true;
          after(Math.max(0, wait - (now() - shownAt)), show);
          return;
        case 'pause':
        case 'seeked':
          return;
      }
    },
    dispose: stop,
  };
}
