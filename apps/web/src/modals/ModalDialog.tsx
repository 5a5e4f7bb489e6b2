import { useEffect, useId, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

/**
 * The shell every modal of the visitor page shares: a labelled, described dialog over a backdrop
 * that focuses its main action when it opens. `lockScroll` also holds the page still while it is
 * open and gives focus back to where it was on close (the inactivity question, which interrupts).
 */
export function ModalDialog({
  className,
  title,
  body,
  actions,
  focusRef,
  onKeyDown,
  lockScroll = false,
}: {
  className: string;
  title: string;
  body: ReactNode;
  actions: ReactNode;
  focusRef: RefObject<HTMLElement | null>;
  onKeyDown?: (event: KeyboardEvent) => void;
  lockScroll?: boolean;
}) {
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    if (!lockScroll) {
      focusRef.current?.focus();
      return;
    }
    const { body: page } = document;
    const previousOverflow = page.style.overflow;
    const previousFocus = document.activeElement;
    page.style.overflow = 'hidden';
    focusRef.current?.focus();
    return () => {
      page.style.overflow = previousOverflow;
      if (previousFocus instanceof HTMLElement && previousFocus.isConnected) previousFocus.focus();
    };
  }, [focusRef, lockScroll]);

  return (
    <div className="modal-backdrop">
      <div
        className={`modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <div id={bodyId}>{body}</div>
        <div className="modal-actions">{actions}</div>
      </div>
    </div>
  );
}
