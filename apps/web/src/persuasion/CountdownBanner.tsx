import { TIMING } from '@embudo/contracts/runtime';
import { useEffect, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { useShownAt } from '../lib/deferred';
import { countdownParts } from './persuasion-rules';
import { useAfter } from './use-after';

/**
 * The countdown banner (visitor-behaviour §4.8): shown 5 s after the page appears, refreshed every second, and
 * saying the offer has ended once the time has passed. Its place is kept from the first paint.
 */
export function CountdownBanner({ deadline }: { deadline: string }) {
  const t = useT();
  const shown = useAfter(TIMING.countdownBannerDelay);
  const [now, setNow] = useState<number | null>(null);
  const shownAt = useShownAt();
  useEffect(() => {
    // Refreshed at once, then on each whole second since the page showed the banner's place: a
    // banner whose code or commit came late keeps the same seconds, and a late timer does not drift.
    let timer = setTimeout(function tick() {
      const at = Date.now();
      setNow(at);
      const intoSecond = (at - shownAt()) % TIMING.countdownRefresh;
      timer = setTimeout(tick, TIMING.countdownRefresh - Math.max(0, intoSecond));
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, [shownAt]);
  const parts = now === null ? null : countdownParts(deadline, now);
  const visible = shown && parts !== null;
  return (
    <div
      className="countdown"
      aria-hidden={visible ? undefined : true}
      style={{ visibility: visible ? 'visible' : 'hidden' }}
    >
      {parts === null ? null : parts.expired ? (
        <p className="countdown-expired" role="status">
          {t('countdown.expired')}
        </p>
      ) : (
        <>
          <p className="countdown-title">{t('countdown.title')}</p>
          <div className="countdown-units" role="timer">
            {(['days', 'hours', 'minutes', 'seconds'] as const).map((unit) => (
              <span key={unit} className={`countdown-unit countdown-${unit}`}>
                <strong>{String(parts[unit]).padStart(2, '0')}</strong>
                <small>{t(`countdown.${unit}`)}</small>
              </span>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
