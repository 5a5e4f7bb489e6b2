import { useEffect, useState } from 'react';

/** False until `ms` after the component mounted in the browser (always false on the server). */
export function useAfter(ms: number, enabled = true): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => {
      setPassed(true);
    }, ms);
    return () => {
      clearTimeout(timer);
    };
  }, [ms, enabled]);
  return passed;
}
