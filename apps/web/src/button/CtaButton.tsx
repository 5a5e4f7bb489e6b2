import { forwardRef } from 'react';

export interface CtaButtonProps {
  /** Sanitised rich text (visitor-behaviour §5), with the lead's name filled in. */
  html: string;
  bgColor: string;
  textColor: string;
  visible: boolean;
  busy: boolean;
  onClick: () => void;
}

/**
 * The call-to-action button (visitor-behaviour §2.4): its place is kept while hidden, so nothing moves when it
 * appears; up to 350, 450 or 850 px wide by screen size; it bounces every 3 s once shown.
 */
export const CtaButton = forwardRef<HTMLButtonElement, CtaButtonProps>(function CtaButton(
  { html, bgColor, textColor, visible, busy, onClick },
  ref,
) {
  return (
    <div className={visible ? 'cta cta-visible' : 'cta'} aria-hidden={visible ? undefined : true}>
      <button
        ref={ref}
        type="button"
        className="cta-button"
        style={{ background: bgColor, color: textColor }}
        disabled={!visible || busy}
        aria-busy={busy || undefined}
        tabIndex={visible ? 0 : -1}
        onClick={onClick}
      >
        <span className="cta-copy" dangerouslySetInnerHTML={{ __html: html }} />
      </button>
    </div>
  );
});
