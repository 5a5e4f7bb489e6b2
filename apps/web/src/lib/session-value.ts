import { useSyncExternalStore } from 'react';

const CHANGED = 'embudo:session-value';

/** Writes a per-tab value and tells the components that read it. */
export function writeSessionValue(key: string, value: string): void {
  window.sessionStorage.setItem(key, value);
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: key }));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  // A page restored from the back-forward cache reads its values again.
  window.addEventListener('pageshow', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('pageshow', onChange);
  };
}

/**
 * A per-tab (sessionStorage) value as React state: null on the server and during hydration, so the
 * first render matches the server's; the stored value right after.
 */
export function useSessionValue(key: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => window.sessionStorage.getItem(key),
    () => null,
  );
}
