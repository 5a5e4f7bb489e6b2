import { useEffect, useId, useRef } from 'react';
import { useT } from '../i18n/I18nProvider';

/**
 * "Are you still there?" (spec §2.5, §4.3): shown after 15 minutes without click or scroll. While
 * open it locks page scroll and focuses its button; closing restores both.
 */
export function InactivityModal({ open, onContinue }: { open: boolean; onContinue: () => void }) {
  const t = useT();
  const titleId = useId();
  const bodyId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const { body } = document;
    const previousOverflow = body.style.overflow;
    const previousFocus = document.activeElement;
    body.style.overflow = 'hidden';
    buttonRef.current?.focus();
    return () => {
      body.style.overflow = previousOverflow;
      if (previousFocus instanceof HTMLElement && previousFocus.isConnected) previousFocus.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className="modal-backdrop">
      <div
        className="modal inactivity-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
      >
        <h2 id={titleId} className="modal-title">
          {t('inactivity.title')}
        </h2>
        <div id={bodyId}>
          <p className="modal-text">{t('inactivity.line1')}</p>
          <p className="modal-text">{t('inactivity.line2')}</p>
        </div>
        <div className="modal-actions">
          <button ref={buttonRef} type="button" className="modal-button" onClick={onContinue}>
            {t('inactivity.continue')}
          </button>
        </div>
      </div>
    </div>
  );
}
