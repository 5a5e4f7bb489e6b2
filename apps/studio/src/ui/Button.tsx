import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'medium' | 'small';
  /** Shows a spinner and refuses clicks while an action runs. */
  busy?: boolean;
  full?: boolean;
  ref?: Ref<HTMLButtonElement>;
  children: ReactNode;
}

export function buttonClass(
  variant: ButtonVariant = 'secondary',
  size: 'medium' | 'small' = 'medium',
): string {
  return [styles.button, styles[variant], size === 'small' ? styles.small : ''].filter(Boolean).join(' ');
}

export function Button({
  variant = 'secondary',
  size = 'medium',
  busy = false,
  full = false,
  type = 'button',
  className,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={[buttonClass(variant, size), full ? styles.full : '', className ?? '']
        .filter(Boolean)
        .join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className={styles.spinner} aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
