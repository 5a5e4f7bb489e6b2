/**
 * The browser's storage, where it can be used: null where there is none (the server) or where
 * touching it throws (blocked storage, private modes). `writable` also tries a write, for browsers
 * that offer storage but throw on writing (Safari's old private mode).
 */
export function browserStorage(kind: 'local' | 'session', { writable = false } = {}): Storage | null {
  try {
    const storage = kind === 'local' ? window.localStorage : window.sessionStorage;
    if (writable) {
      storage.setItem('embudo_probe', '1');
      storage.removeItem('embudo_probe');
    }
    return storage;
  } catch {
    return null;
  }
}

/** An item of storage that may throw on any access (private mode, blocked cookies): absent then. */
export function readItem(storage: Pick<Storage, 'getItem'> | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores an item if the storage lets it (full or blocked storage: nothing is stored); never throws. */
export function writeItem(storage: Pick<Storage, 'setItem'> | null, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Full or blocked storage: whatever it was for is done again next time.
  }
}
