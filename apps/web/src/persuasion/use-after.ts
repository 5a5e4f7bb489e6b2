import { useEffect, useState } from 'react';
import { useShownAt } from '../lib/deferred';

/**
 * False until `ms` after the element was shown in the browser (always false on the server): its
 * mount, or the first commit of its place when its code arrived later.
 */
export function useAfter(ms: number, enabled = true): boolean {
  const [passed, setPassed] = useState(false);
  const shownAt = useShownAt();
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(
      () => {
        setPassed(true);
      },
      Math.max(0, ms - (Date.now() - shownAt())),
    );
    return () => {
      clearTimeout(timer);
    };
  }, [ms, enabled, shownAt]);
  return passed;
}
