import { TIMING } from '@embudo/contracts/runtime';
import { useEffect, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { useShownAt } from '../lib/deferred';
import { firstOnlineCount, nextOnlineCount } from './persuasion-rules';

/**
 * The online-viewer count (visitor-behaviour §4.8): appears 3 s after the page shows, then changes every 8 s by
 * -2 to +5 within the range. The line is reserved from the first paint.
 */
export function OnlineCount({ range }: { range: readonly [number, number] }) {
  const t = useT();
  const [low, high] = range;
  const [count, setCount] = useState<number | null>(null);
  const shownAt = useShownAt();
  useEffect(() => {
    const bounds = [low, high] as const;
    let every: ReturnType<typeof setInterval> | undefined;
    const delay = Math.max(0, TIMING.fakeUsersDelay - (Date.now() - shownAt()));
    const first = setTimeout(() => {
      setCount(firstOnlineCount(bounds));
      every = setInterval(() => {
        setCount((current) => nextOnlineCount(current ?? firstOnlineCount(bounds), bounds));
      }, TIMING.fakeUsersEvery);
    }, delay);
    return () => {
      clearTimeout(first);
      clearInterval(every);
    };
  }, [low, high, shownAt]);
  return (
    <p className="online-count" style={{ visibility: count === null ? 'hidden' : 'visible' }}>
      <span className="online-dot" aria-hidden="true" />
      {count === null ? '\u00a0' : t('fakeUsers.online', { count })}
    </p>
  );
}
