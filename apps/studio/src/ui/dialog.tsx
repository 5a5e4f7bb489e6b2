import {
  cloneElement,
  useEffect,
  useId,
  useRef,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { useMessages } from '../i18n/i18n';
import { Button } from './Button';
import styles from './dialog.module.css';
import { FormAlert } from './form';
import { uiMessages } from './messages';

/**
 * The browser's own modal dialog (`<dialog>` opened with showModal): focus moves in and comes back,
 * Escape closes it, the page behind is inert. Chosen over a scripted one because it needs no inline
 * style, which the Studio's policy refuses (decision 0023).
 */
export function ModalDialog({
  open,
  onOpenChange,
  className,
  role,
  labelledBy,
  describedBy,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  className?: string;
  role?: 'alertdialog';
  labelledBy?: string;
  describedBy?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // A click on the backdrop (the dialog element itself, outside its content) closes it.
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === ref.current && role !== 'alertdialog') onOpenChange(false);
  };
  return (
    <dialog
      ref={ref}
      className={className ?? styles.content}
      role={role}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-modal="true"
      onClose={() => {
        onOpenChange(false);
      }}
      onClick={onClick}
    >
      {open ? children : null}
    </dialog>
  );
}

/** A modal with a title and a description (what a screen reader announces on opening). */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <ModalDialog
      open={open}
      onOpenChange={onOpenChange}
      labelledBy={`${id}-title`}
      {...(description ? { describedBy: `${id}-description` } : {})}
    >
      <div className={styles.inner}>
        <h2 className={styles.title} id={`${id}-title`}>
          {title}
        </h2>
        {description ? (
          <p className={styles.description} id={`${id}-description`}>
            {description}
          </p>
        ) : null}
        {children}
      </div>
    </ModalDialog>
  );
}

export function DialogActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

/**
 * Asks before something that cannot be undone. The dialog stays open, with the failure shown, when the
 * action fails.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
}: {
  trigger: ReactElement<{ onClick?: () => void }>;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}) {
  const t = useMessages(uiMessages);
  const id = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) setFailure(null);
  };
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {cloneElement(trigger, {
        onClick: () => {
          change(true);
        },
      })}
      <ModalDialog
        open={open}
        onOpenChange={change}
        role="alertdialog"
        labelledBy={`${id}-title`}
        describedBy={`${id}-description`}
      >
        <div className={styles.inner}>
          <h2 className={styles.title} id={`${id}-title`}>
            {title}
          </h2>
          <p className={styles.description} id={`${id}-description`}>
            {description}
          </p>
          <FormAlert error={failure} />
          <div className={styles.actions}>
            <Button
              autoFocus
              onClick={() => {
                change(false);
              }}
            >
              {t('cancel')}
            </Button>
            <Button variant="danger" busy={busy} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      </ModalDialog>
    </>
  );
}
