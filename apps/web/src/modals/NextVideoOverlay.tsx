import { useEffect, useEffectEvent, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { NEXT_VIDEO_SCHEDULE, firstValue, runNextVideoSchedule } from './next-video-schedule';

/**
 * The next-video countdown (visitor-behaviour §2.5, §4.8, §9): a full-screen dim overlay with a spinner, the
 * caption and the remaining number — 3, 2, 1, 0 every 500 ms, a 500 ms hold at 0 — then it hides and
 * calls `onDone` once. Turning `visible` false stops it; turning it true again starts over.
 */
export function NextVideoOverlay({ visible, onDone }: { visible: boolean; onDone: () => void }) {
  // A fresh countdown per showing: its state starts at the first value, no reset inside an effect.
  return visible ? <NextVideoCountdown onDone={onDone} /> : null;
}

function NextVideoCountdown({ onDone }: { onDone: () => void }) {
  const t = useT();
  const [remaining, setRemaining] = useState(() => firstValue(NEXT_VIDEO_SCHEDULE));
  const [finished, setFinished] = useState(false);
  const notifyDone = useEffectEvent(() => {
    onDone();
  });

  useEffect(
    () =>
      runNextVideoSchedule(NEXT_VIDEO_SCHEDULE, {
        onValue: setRemaining,
        onDone: () => {
          setFinished(true);
          notifyDone();
        },
      }),
    [],
  );

  if (finished) return null;
  return (
    <div className="next-video-overlay" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p className="next-video-caption">{t('nextVideo.caption')}</p>
      <p className="next-video-count">{remaining}</p>
    </div>
  );
}
