import { TIMING, VIDEO_MILESTONES } from '@embudo/contracts/runtime';
import type { PlayerEvent } from './player';

/** The state a video record reports (visitor-behaviour §4.4), plus the milestone, periodic and skip reports. */
export type VideoRecordState = 'PLAYING' | 'PAUSE' | 'ENDED' | 'INTERRUPTED' | 'SKIP' | 'PROGRESS';

/** A video record of visitor-behaviour §3, without the session and token the sender adds. */
export interface VideoRecord {
  startViewTime: number;
  endViewTime: number;
  startTimeVideo: number;
  endTimeVideo: number;
  details: {
    videoDuration: number;
    /** Milliseconds of playback this record covers. */
    reproductionTime: number;
    state: VideoRecordState;
    videoProgressUpdate?: { seconds: number; percent: number };
  };
}

export interface VideoTrackerDeps {
  now: () => number;
  send: (record: VideoRecord) => void;
  /** The provider that reports progress every 30 s as well (visitor-behaviour §4.4, §9). */
  periodic: boolean;
  setTimeout?: (run: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  setInterval?: (run: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

export interface VideoTracker {
  /** Feed every player event here. */
  handle(event: PlayerEvent): void;
  /** The page was hidden or closed: the playing stretch ends as INTERRUPTED. */
  interrupt(): void;
  /** Report the stretch played so far (before a page change), and go on counting from now. */
  flush(): void;
  isPlaying(): boolean;
  dispose(): void;
}

/**
 * Turns player events into the video records of visitor-behaviour §4.4: PLAYING on play, PAUSE, ENDED, and
 * INTERRUPTED when the page goes away, each record covering one stretch of playback; milestones of
 * 25, 50 and 75 % once each (cleared when play starts below 30 s); a skip record 1 s after the last
 * of a run of seeks; every 30 s a progress record for the provider that needs it.
 */
export function createVideoTracker(deps: VideoTrackerDeps): VideoTracker {
  const later = deps.setTimeout ?? ((run, ms) => globalThis.setTimeout(run, ms));
  const cancel =
    deps.clearTimeout ??
    ((h) => {
      globalThis.clearTimeout(h as number);
    });
  const every = deps.setInterval ?? ((run, ms) => globalThis.setInterval(run, ms));
  const stopEvery =
    deps.clearInterval ??
    ((h) => {
      globalThis.clearInterval(h as number);
    });

  let duration = 0;
  let position = 0;
  let played = false;
  /** The open stretch of playback, while the video plays. */
  let stretch: { startView: number; startVideo: number } | null = null;
  const reached = new Set<number>();
  let pendingSkip: { from: number; to: number; handle: unknown; at: number } | null = null;
  let periodic: unknown = null;

  const record = (
    state: VideoRecordState,
    from: { view: number; video: number },
    to: { view: number; video: number },
    progress?: { seconds: number; percent: number },
  ) => {
    deps.send({
      startViewTime: from.view,
      endViewTime: to.view,
      startTimeVideo: round(from.video),
      endTimeVideo: round(to.video),
      details: {
        videoDuration: round(duration),
        reproductionTime: Math.max(0, to.view - from.view),
        state,
        ...(progress ? { videoProgressUpdate: progress } : {}),
      },
    });
  };

  const open = (time: number) => {
    const at = deps.now();
    stretch = { startView: at, startVideo: time };
    record('PLAYING', { view: at, video: time }, { view: at, video: time });
    if (deps.periodic && periodic === null) {
      periodic = every(() => {
        const now = deps.now();
        record(
          'PROGRESS',
          { view: now, video: position },
          { view: now, video: position },
          { seconds: round(position), percent: percentOf(position) },
        );
      }, TIMING.periodicProgress);
    }
  };

  const close = (state: 'PAUSE' | 'ENDED' | 'INTERRUPTED', time: number) => {
    if (periodic !== null) {
      stopEvery(periodic);
      periodic = null;
    }
    if (!stretch) return;
    const at = deps.now();
    record(state, { view: stretch.startView, video: stretch.startVideo }, { view: at, video: time });
    stretch = null;
  };

  const percentOf = (time: number) => (duration > 0 ? Math.round((time / duration) * 100) : 0);

  const milestones = (time: number) => {
    if (duration <= 0) return;
    for (const milestone of VIDEO_MILESTONES) {
      if (reached.has(milestone) || (time / duration) * 100 < milestone) continue;
      reached.add(milestone);
      const at = deps.now();
      record(
        'PROGRESS',
        { view: at, video: time },
        { view: at, video: time },
        { seconds: round(time), percent: milestone },
      );
    }
  };

  return {
    handle(event) {
      switch (event.type) {
        case 'ready':
        case 'error':
          return;
        case 'duration':
          if (Number.isFinite(event.duration) && event.duration > 0) duration = event.duration;
          return;
        case 'play':
          played = true;
          position = event.time;
          // Watching again from the start reports the milestones again (visitor-behaviour §4.4).
          if (event.time < 30) reached.clear();
          if (!stretch) open(event.time);
          return;
        case 'timeupdate':
          position = event.time;
          // Playing again after the page came back from the background.
          if (!stretch && played) open(event.time);
          milestones(event.time);
          return;
        case 'pause':
          position = event.time;
          close('PAUSE', event.time);
          return;
        case 'ended':
          position = event.time;
          close('ENDED', event.time);
          milestones(event.time);
          return;
        case 'seeked': {
          // Seeks before the first play are ours (the resume point), not the visitor's.
          if (!played) {
            position = event.time;
            return;
          }
          const from = pendingSkip ? pendingSkip.from : position;
          const at = pendingSkip ? pendingSkip.at : deps.now();
          if (pendingSkip) cancel(pendingSkip.handle);
          position = event.time;
          const to = event.time;
          const handle = later(() => {
            pendingSkip = null;
            const now = deps.now();
            record('SKIP', { view: at, video: from }, { view: now, video: to });
          }, TIMING.skipEventDelay);
          pendingSkip = { from, to, handle, at };
          return;
        }
      }
    },
    interrupt() {
      if (stretch) close('INTERRUPTED', position);
    },
    flush() {
      if (!stretch) return;
      const at = deps.now();
      record(
        'PLAYING',
        { view: stretch.startView, video: stretch.startVideo },
        { view: at, video: position },
      );
      stretch = { startView: at, startVideo: position };
    },
    isPlaying: () => stretch !== null,
    dispose() {
      if (pendingSkip) cancel(pendingSkip.handle);
      if (periodic !== null) stopEvery(periodic);
      pendingSkip = null;
      periodic = null;
    },
  };
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Where a returning visitor starts (visitor-behaviour §4.4): 15 s before the stored point, 0 when that point is
 * within the first 15 s or beyond the end.
 */
export function resumePoint(stored: number | null | undefined, duration: number | null): number {
  if (!stored || stored <= TIMING.resumeOffset / 1000) return 0;
  const start = stored - TIMING.resumeOffset / 1000;
  if (duration !== null && start >= duration) return 0;
  return start;
}
