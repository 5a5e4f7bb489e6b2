import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createVideoTracker, resumePoint, type VideoRecord } from './video-tracker';

describe('video records (visitor-behaviour §4.4)', () => {
  let now = 1_000_000;
  let sent: VideoRecord[];
  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000_000;
    sent = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const tracker = (periodic = false) =>
    createVideoTracker({
      now: () => now,
      periodic,
      send: (record) => {
        sent.push(record);
      },
    });
  const states = () => sent.map((r) => r.details.state);

  it('records PLAYING on play and a PAUSE stretch with its times', () => {
    const t = tracker();
    t.handle({ type: 'duration', duration: 100 });
    t.handle({ type: 'play', time: 10 });
    now += 5000;
    t.handle({ type: 'timeupdate', time: 15 });
    t.handle({ type: 'pause', time: 15 });
    expect(states()).toEqual(['PLAYING', 'PAUSE']);
    expect(sent[1]).toMatchObject({
      startViewTime: 1_000_000,
      endViewTime: 1_005_000,
      startTimeVideo: 10,
      endTimeVideo: 15,
      details: { videoDuration: 100, reproductionTime: 5000, state: 'PAUSE' },
    });
  });

  it('reports 25, 50 and 75 % once each, again after play starts below 30 s', () => {
    const t = tracker();
    t.handle({ type: 'duration', duration: 200 });
    t.handle({ type: 'play', time: 0 });
    for (const time of [40, 50, 60, 100, 120, 150, 151, 160]) t.handle({ type: 'timeupdate', time });
    const milestones = () =>
      sent.filter((r) => r.details.state === 'PROGRESS').map((r) => r.details.videoProgressUpdate?.percent);
    expect(milestones()).toEqual([25, 50, 75]);
    t.handle({ type: 'pause', time: 160 });
    t.handle({ type: 'play', time: 100 });
    t.handle({ type: 'timeupdate', time: 160 });
    expect(milestones()).toEqual([25, 50, 75]);
    t.handle({ type: 'pause', time: 160 });
    t.handle({ type: 'play', time: 5 });
    t.handle({ type: 'timeupdate', time: 100 });
    expect(milestones()).toEqual([25, 50, 75, 25, 50]);
  });

  it('sends one skip record 1 s after the last of a run of seeks', () => {
    const t = tracker();
    t.handle({ type: 'duration', duration: 100 });
    t.handle({ type: 'play', time: 0 });
    t.handle({ type: 'timeupdate', time: 12 });
    t.handle({ type: 'seeked', time: 30 });
    vi.advanceTimersByTime(500);
    t.handle({ type: 'seeked', time: 45 });
    vi.advanceTimersByTime(999);
    expect(states()).not.toContain('SKIP');
    vi.advanceTimersByTime(1);
    const skips = sent.filter((r) => r.details.state === 'SKIP');
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatchObject({ startTimeVideo: 12, endTimeVideo: 45 });
  });

  it('does not count the resume seek before the first play as a skip', () => {
    const t = tracker();
    t.handle({ type: 'seeked', time: 40 });
    vi.advanceTimersByTime(5000);
    expect(sent).toEqual([]);
  });

  it('ends the playing stretch as INTERRUPTED when the page goes away, and reopens it after', () => {
    const t = tracker();
    t.handle({ type: 'play', time: 0 });
    now += 3000;
    t.handle({ type: 'timeupdate', time: 3 });
    t.interrupt();
    t.interrupt();
    expect(states()).toEqual(['PLAYING', 'INTERRUPTED']);
    t.handle({ type: 'timeupdate', time: 4 });
    expect(states()).toEqual(['PLAYING', 'INTERRUPTED', 'PLAYING']);
  });

  it('records ENDED with the stretch up to the end', () => {
    const t = tracker();
    t.handle({ type: 'duration', duration: 12 });
    t.handle({ type: 'play', time: 0 });
    now += 12_000;
    t.handle({ type: 'ended', time: 12 });
    expect(sent.find((r) => r.details.state === 'ENDED')).toMatchObject({
      startTimeVideo: 0,
      endTimeVideo: 12,
      details: { reproductionTime: 12_000 },
    });
  });

  it('reports progress every 30 s only for the provider that needs it', () => {
    const quiet = tracker(false);
    quiet.handle({ type: 'play', time: 0 });
    vi.advanceTimersByTime(90_000);
    expect(states().filter((s) => s === 'PROGRESS')).toHaveLength(0);
    quiet.dispose();
    sent = [];
    const periodic = tracker(true);
    periodic.handle({ type: 'duration', duration: 600 });
    periodic.handle({ type: 'play', time: 0 });
    periodic.handle({ type: 'timeupdate', time: 20 });
    vi.advanceTimersByTime(90_000);
    expect(states().filter((s) => s === 'PROGRESS')).toHaveLength(3);
    periodic.handle({ type: 'pause', time: 20 });
    vi.advanceTimersByTime(90_000);
    expect(states().filter((s) => s === 'PROGRESS')).toHaveLength(3);
  });
});

describe('resume point (visitor-behaviour §4.4)', () => {
  it.each([
    [null, null, 0],
    [10, 600, 0],
    [15, 600, 0],
    [100, 600, 85],
    [100, null, 85],
    [700, 600, 0],
    [614, 600, 599],
    [615, 600, 0],
  ] as const)('stored %s with duration %s starts at %s', (stored, duration, expected) => {
    expect(resumePoint(stored, duration)).toBe(expected);
  });
});
