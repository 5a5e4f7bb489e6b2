import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useT } from '../i18n/I18nProvider';

/**
 * "Window blocked" (spec §2.5, §4.7): the browser refused to open the button's link. 'Continuar' is
 * a real link to `url` in a new tab, so the visitor's own tap opens it; Escape or 'Cancelar' closes.
 */
export function BlockedWindowModal({
  open,
  url,
  onCancel,
  onContinue,
}: {
  open: boolean;
  url: string;
  onCancel: () => void;
  onContinue: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const bodyId = useId();
  const continueRef = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (open) continueRef.current?.focus();
  }, [open]);

  if (!open) return null;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel();
  };
  return (
    <div className="modal-backdrop">
      <div
        className="modal blocked-window-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal-title">
          {t('blockedWindow.title')}
        </h2>
        <p id={bodyId} className="modal-text">
          {t('blockedWindow.body')}
        </p>
        <div className="modal-actions">
          <button type="button" className="modal-button modal-button-secondary" onClick={onCancel}>
            {t('blockedWindow.cancel')}
          </button>
          <a
            ref={continueRef}
            className="modal-button"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            onClick={onContinue}
          >
            {t('blockedWindow.continue')}
          </a>
        </div>
      </div>
    </div>
  );
}
