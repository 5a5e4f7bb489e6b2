import { useId, useState } from 'react';
import { useMessages } from '../i18n/i18n';
import { Button } from './Button';
import { Input, formStyles } from './form';
import { uiMessages } from './messages';

/** A secret or a link shown once: read-only, selected on focus, with a copy button. */
export function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const t = useMessages(uiMessages);
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => {
        setCopied(false);
      }, 2000);
    } catch {
      // No clipboard (an insecure origin): the text is selected for the owner to copy by hand.
      const input = document.getElementById(id);
      if (input instanceof HTMLInputElement) input.select();
    }
  };
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      <div className={formStyles.copy}>
        <Input
          id={id}
          readOnly
          value={value}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
        <Button onClick={() => void copy()} aria-live="polite">
          {copied ? t('copied') : t('copy')}
        </Button>
      </div>
      {hint ? (
        <p className={formStyles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
