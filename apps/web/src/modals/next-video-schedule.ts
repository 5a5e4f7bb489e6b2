import { TIMING } from '@embudo/contracts/runtime';

/** One entry of the next-video countdown: show `value` at `at` ms, or finish at `at` ms. */
export type NextVideoEvent =
  { readonly at: number; readonly value: number } | { readonly at: number; readonly done: true };

/**
 * The next-video overlay's timeline (visitor-behaviour §4.8, §9): `steps` down to 0, one every `step` ms, then a
 * pause of one more `step` at 0, then done. Times are offsets from the moment the overlay shows.
 *
 * nextVideoSchedule(500, 3) → 3@0, 2@500, 1@1000, 0@1500, done@2000.
 */
export function nextVideoSchedule(step: number, steps: number): NextVideoEvent[] {
  if (!Number.isFinite(step) || step < 0) throw new RangeError(`invalid step: ${step}`);
  if (!Number.isInteger(steps) || steps < 0) throw new RangeError(`invalid steps: ${steps}`);
  const events: NextVideoEvent[] = [];
  for (let i = 0; i <= steps; i++) events.push({ at: i * step, value: steps - i });
  events.push({ at: (steps + 1) * step, done: true });
  return events;
}

/** The schedule the overlay uses, from the spec's constants. */
export const NEXT_VIDEO_SCHEDULE: readonly NextVideoEvent[] = nextVideoSchedule(
  TIMING.nextVideoStep,
  TIMING.nextVideoSteps,
);

/** The number shown before any timer fires: the schedule's first value. */
export function firstValue(schedule: readonly NextVideoEvent[]): number {
  const first = schedule[0];
  return first !== undefined && 'value' in first ? first.value : 0;
}

/**
 * Plays `schedule` with one `setTimeout` per entry, every callback asynchronous (even the entry at
 * 0 ms), so callers may update state from them. Returns a cancel function that clears the timers
 * not yet fired; `onDone` runs at most once.
 */
export function runNextVideoSchedule(
  schedule: readonly NextVideoEvent[],
  handlers: { onValue: (value: number) => void; onDone: () => void },
): () => void {
  const timers = schedule.map((event) =>
    setTimeout(() => {
      if ('done' in event) handlers.onDone();
      else handlers.onValue(event.value);
    }, event.at),
  );
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}
