import { TIMING } from '@embudo/contracts/runtime';
import { useEffect, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { countdownParts } from './persuasion-rules';
import { useAfter } from './use-after';

/**
 * The countdown banner (spec §4.8): shown 5 s after the page appears, refreshed every second, and
 * saying the offer has ended once the time has passed. Its place is kept from the first paint.
 */
export function CountdownBanner({ deadline }: { deadline: string }) {
  const t = useT();
  const shown = useAfter(TIMING.countdownBannerDelay);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => {
      setNow(Date.now());
    };
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, TIMING.countdownRefresh);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);
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
