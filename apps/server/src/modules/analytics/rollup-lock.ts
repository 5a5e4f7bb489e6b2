/**
 * One at a time: every path that changes the rollups (the event writer's batches, new leads,
 * conversions) holds this from reading state rows to its commit, so that none writes back a state
 * row another has changed meanwhile (decision 25). Work queued after a failure still runs.
 */
export interface RollupLock {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createRollupLock(): RollupLock {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      const result = tail.then(work, work);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
