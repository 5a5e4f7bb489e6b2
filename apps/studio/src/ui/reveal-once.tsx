import { useState } from 'react';
import { Button } from './Button';
import { CopyField } from './CopyField';
import { DialogActions } from './dialog';

/**
 * The state of a dialog that makes something shown only once (an API key, a lead's link, an
 * invitation link): what was made, if anything yet, and a close that forgets it and resets the form,
 * so that reopening the dialog never shows the secret again.
 */
export function useRevealOnce<T>(onOpenChange: (open: boolean) => void, reset: () => void) {
  const [revealed, setRevealed] = useState<T | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setRevealed(null);
      reset();
    }
  };
  return { revealed, reveal: setRevealed, close };
}

/** The secret, once, with its copy button, and the dialog's only way on: done. */
export function RevealedSecret({
  label,
  value,
  doneLabel,
  onDone,
}: {
  label: string;
  value: string;
  doneLabel: string;
  onDone: () => void;
}) {
  return (
    <>
      <CopyField label={label} value={value} />
      <DialogActions>
        <Button variant="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </DialogActions>
    </>
  );
}
