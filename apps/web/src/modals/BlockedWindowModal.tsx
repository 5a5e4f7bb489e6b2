import { useRef, type KeyboardEvent } from 'react';
import { useT } from '../i18n/I18nProvider';
import { ModalDialog } from './ModalDialog';

/**
 * "Window blocked" (visitor-behaviour §2.5, §4.7): the browser refused to open the button's link. 'Continuar' is
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
  const continueRef = useRef<HTMLAnchorElement>(null);
  if (!open) return null;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel();
  };
  return (
    <ModalDialog
      className="blocked-window-modal"
      title={t('blockedWindow.title')}
      body={<p className="modal-text">{t('blockedWindow.body')}</p>}
      focusRef={continueRef}
      onKeyDown={onKeyDown}
      actions={
        <>
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
        </>
      }
    />
  );
}
