import { useId, type InputHTMLAttributes, type Ref } from 'react';
import styles from './funnels.module.css';

/** A labelled checkbox with an optional hint under its label. */
export function Check({
  label,
  hint,
  ref,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  return (
    <label className={styles.check}>
      <input ref={ref} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />
      <span className={styles.checkText}>
        <span className={styles.checkLabel}>{label}</span>
        {hint ? (
          <span className={styles.checkHint} id={`${id}-hint`}>
            {hint}
          </span>
        ) : null}
      </span>
    </label>
  );
}

/** The consumer-protection note shown while a fake element is on. */
export function LegalNote({ text }: { text: string }) {
  return (
    <p className={styles.warning} role="note">
      {text}
    </p>
  );
}
