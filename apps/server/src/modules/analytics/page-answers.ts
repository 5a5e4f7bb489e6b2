/**
 * Finished page answers kept in memory (decision 25, "A page's answer"), each as the JSON text the
 * owner is sent, valid while its page's analytics version is the one it was made at. The version is
 * raised in the transaction of every change to the page's rows, on every process, so a kept answer is
 * never older than the last committed batch; a Studio dashboard polling every few seconds costs one
 * read of a version row between batches instead of the whole answer.
 */
export interface PageAnswers {
  /** The answer kept under `key` if it was made at `version`. */
  get(key: string, version: number): string | undefined;
  set(key: string, version: number, body: string): void;
}

/** At most `capacity` answers, the least recently asked for going first. */
export function createPageAnswers(capacity: number): PageAnswers {
  const kept = new Map<string, { version: number; body: string }>();
  return {
    get(key, version) {
      const entry = kept.get(key);
      if (entry === undefined) return undefined;
      kept.delete(key);
      if (entry.version !== version) return undefined;
      kept.set(key, entry);
      return entry.body;
    },
    set(key, version, body) {
      kept.delete(key);
      kept.set(key, { version, body });
      for (const oldest of kept.keys()) {
        if (kept.size <= capacity) break;
        kept.delete(oldest);
      }
    },
  };
}
