import { TIMING } from '@embudo/contracts/runtime';
import { useT } from '../i18n/I18nProvider';
import { useAfter } from './use-after';

/**
 * The fake progress bar (visitor-behaviour §4.8): it fills to the configured percent 1.5 s after the page shows,
 * and its label appears at 2 s, in the configured text colour. Its height is fixed from the first
 * paint and the fill is a transform, so nothing around it moves.
 */
export function FakeProgressBar({ percent, textColor }: { percent: number; textColor: string }) {
  const t = useT();
  const filled = useAfter(TIMING.fakeProgressFill);
  const labelled = useAfter(TIMING.fakeProgressLabel);
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      className="fake-progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={filled ? value : 0}
    >
      <div className="fake-progress-fill" style={{ transform: `scaleX(${filled ? value / 100 : 0})` }} />
      <span className="fake-progress-label" style={{ color: textColor, opacity: labelled ? 1 : 0 }}>
        {t('progress.label', { percent: value })}
      </span>
    </div>
  );
}
