import { useRef } from 'react';
import { useT } from '../i18n/I18nProvider';
import { ModalDialog } from './ModalDialog';

/**
 * "Are you still there?" (visitor-behaviour §2.5, §4.3): shown after 15 minutes without click or scroll. While
 * open it locks page scroll and focuses its button; closing restores both.
 */
export function InactivityModal({ open, onContinue }: { open: boolean; onContinue: () => void }) {
  const t = useT();
  const buttonRef = useRef<HTMLButtonElement>(null);
  if (!open) return null;
  return (
    <ModalDialog
      className="inactivity-modal"
      title={t('inactivity.title')}
      body={
        <>
          <p className="modal-text">{t('inactivity.line1')}</p>
          <p className="modal-text">{t('inactivity.line2')}</p>
        </>
      }
      focusRef={buttonRef}
      lockScroll
      actions={
        <button ref={buttonRef} type="button" className="modal-button" onClick={onContinue}>
          {t('inactivity.continue')}
        </button>
      }
    />
  );
}
